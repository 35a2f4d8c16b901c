#if canImport(Glibc)
    import Glibc
#endif

/// Gives memory of large allocations back to the system when it is freed (issue 50.11).
///
/// glibc serves an allocation of 128 KiB or more with a mapping of its own, returned when it is
/// freed, but raises that threshold to the size of each such block freed (up to 32 MiB): after
/// the first object-store part (8 MiB) went, the next large buffers (parts, libcurl's, answers
/// near their byte budget) came from the heap, and freed they stayed in it. Measured on a
/// `parley serve` process (UploadMemoryTests): three S3 uploads of 20 MiB grew it 17 MiB and
/// one of 60 MiB 33 MiB; with the threshold fixed at 1 MiB, none of them moved it. Allocations
/// that large are few (a page of a list near its budget, a part, a decoded image), so a mapping
/// each costs little. `MALLOC_MMAP_THRESHOLD_` in the environment still wins.
enum MemoryReturn {
    static let threshold: Int32 = 1 << 20
    /// `M_MMAP_THRESHOLD` of glibc's `<malloc.h>`, which the Glibc module does not import (nor
    /// `mallopt`: it is looked up by name).
    static let mmapThresholdParameter: Int32 = -3

    static func configure() {
        #if canImport(Glibc)
            guard getenv("MALLOC_MMAP_THRESHOLD_") == nil, let symbol = dlsym(nil, "mallopt") else { return }
            let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
            _ = mallopt(mmapThresholdParameter, threshold)
        #endif
    }
}
