import ChestIO
import Testing

/// The libraries opened on demand (docs/PACKAGING.md "Libraries loaded on demand"): each opens with every function
/// chest calls of it, and one that cannot be opened is an error naming the package to install on Debian 12 and 13.
/// OnDemandLibraryTests in EndToEndTests hides one from the program.
struct OnDemandLibraryTests {
    @Test func eachOpensWithEveryFunctionChestCalls() throws {
        for library in OnDemandLibrary.allCases {
            try library.open()
            // Opening again is nothing more.
            try library.open()
        }
    }

    @Test(arguments: [
        (OnDemandLibrary.curl, "libcurl.so.4", "sudo apt install libcurl4t64 (Debian 13; libcurl4 on Debian 12)"),
        (.xml2, "libxml2.so.2", "sudo apt install libxml2"),
        (.mosquitto, "libmosquitto.so.1", "sudo apt install libmosquitto1"),
        (
            .microhttpd, "libmicrohttpd.so.12",
            "sudo apt install libmicrohttpd12t64 (Debian 13; libmicrohttpd12 on Debian 12)"
        ),
    ])
    func theErrorNamesThePackage(library: OnDemandLibrary, soname: String, install: String) {
        #expect(library.soname == soname)
        let error = LibraryUnavailable(library: library, reason: "\(soname): cannot open shared object file")
        #expect(
            error.description
                == "cannot load \(soname) (\(soname): cannot open shared object file); install it: \(install)")
    }
}
