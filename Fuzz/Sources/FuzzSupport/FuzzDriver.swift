import Foundation

/// libFuzzer's entry point for programs that have their own `main` (`LLVMFuzzerRunDriver`, in libFuzzer since
/// LLVM 11). SwiftPM links every executable with `--defsym main=<Target>_main`, so libFuzzer's own `main` is
/// never used: each target's `@main` hands its test function to the driver instead of exporting
/// `LLVMFuzzerTestOneInput`.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// A fuzz target's test function: one input, valid only during the call; returns 0 (libFuzzer reserves others).
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

public enum FuzzDriver {
    /// Runs libFuzzer with this process's arguments (`-max_total_time=30 corpus/`, a crash file, …) and exits
    /// with its status.
    public static func run(_ test: FuzzTest) -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv, test)
        exit(status)
    }
}
