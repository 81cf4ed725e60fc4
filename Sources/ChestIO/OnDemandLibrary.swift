import CLazyLibraries

/// A C library the program opens when a module first needs it, not when it starts (docs/PACKAGING.md "Libraries
/// loaded on demand"): libcurl, libxml2, libmosquitto or libmicrohttpd. The module that calls one opens it first, so
/// that a missing library is an error it reports, naming the package to install.
package enum OnDemandLibrary: CaseIterable, Hashable, Sendable {
    case curl, xml2, mosquitto, microhttpd

    /// The name dlopen(3) is given, such as "libcurl.so.4".
    package var soname: String { String(cString: chest_library_soname(name)) }

    /// The Debian packages that install it: Debian 12's and Debian 13's (time_t's move to 64 bits renamed some).
    package var packages: (debian12: String, debian13: String) {
        switch self {
        case .curl: ("libcurl4", "libcurl4t64")
        case .xml2: ("libxml2", "libxml2")
        case .mosquitto: ("libmosquitto1", "libmosquitto1")
        case .microhttpd: ("libmicrohttpd12", "libmicrohttpd12t64")
        }
    }

    /// Opens the library, if it is not open yet, with every function chest calls of it.
    package func open() throws(LibraryUnavailable) {
        var error = [CChar](repeating: 0, count: 512)
        guard chest_library_open(name, &error, error.count) != 0 else { return }
        throw LibraryUnavailable(
            library: self,
            reason: String(decoding: error.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
    }

    private var name: chest_library_name {
        switch self {
        case .curl: CHEST_LIBCURL
        case .xml2: CHEST_LIBXML2
        case .mosquitto: CHEST_LIBMOSQUITTO
        case .microhttpd: CHEST_LIBMICROHTTPD
        }
    }
}

/// A library the program opens on demand is missing, or lacks a function chest calls.
package struct LibraryUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    package let library: OnDemandLibrary
    /// What dlopen(3) or dlsym(3) said.
    package let reason: String

    package init(library: OnDemandLibrary, reason: String) {
        self.library = library
        self.reason = reason
    }

    package var description: String {
        let (debian12, debian13) = library.packages
        let install =
            debian12 == debian13
            ? "sudo apt install \(debian12)" : "sudo apt install \(debian13) (Debian 13; \(debian12) on Debian 12)"
        return "cannot load \(library.soname) (\(reason)); install it: \(install)"
    }
}
