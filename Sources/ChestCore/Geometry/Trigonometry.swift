#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The core imports the C maths library for these functions only: pure arithmetic, no I/O.
@inline(__always) func sine(_ x: Double) -> Double { sin(x) }
@inline(__always) func cosine(_ x: Double) -> Double { cos(x) }
@inline(__always) func arcsine(_ x: Double) -> Double { asin(x) }
@inline(__always) func arctangent2(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
