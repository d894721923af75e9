import Foundation

/// A machine whose clock is wrong, for one program: a shared library preloaded into it (`LD_PRELOAD`)
/// moves what `clock_gettime` answers for real time by a number of seconds, as a bad RTC or NTP off for
/// a while would. The program runs as built, on the system's clock calls; only its view of real time is
/// off. (libfaketime does the same, but its start-up leaves a Swift program without its arguments.)
/// The debug builds the tests run are dynamically linked, so the library takes effect in them.
public enum WrongClock {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdlib.h>
        #include <time.h>

        static long long offset(void) {
            const char *text = getenv("JOURNAL_TEST_CLOCK_OFFSET_S");
            return text ? atoll(text) : 0;
        }

        int clock_gettime(clockid_t id, struct timespec *now) {
            static int (*real)(clockid_t, struct timespec *);
            if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
            int result = real(id, now);
            if (result == 0 && (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)) now->tv_sec += offset();
            return result;
        }
        """

    /// The variables that run a program with its clock `seconds` off (ahead when positive), the
    /// library built in `folder`.
    public static func environment(offBy seconds: Int64, in folder: String) throws -> [String: String] {
        let library = folder + "/wrong-clock.so"
        if !FileManager.default.fileExists(atPath: library) {
            let code = folder + "/wrong-clock.c"
            try source.write(toFile: code, atomically: true, encoding: .utf8)
            let built = try ProcessRunner.run("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", library, code, "-ldl"], environment: [:])
            guard built.status == 0 else { throw WrongClockUnbuilt(message: built.stderr) }
        }
        return ["LD_PRELOAD": library, "JOURNAL_TEST_CLOCK_OFFSET_S": String(seconds)]
    }
}

/// The library that sets a program's clock wrong could not be built.
struct WrongClockUnbuilt: Error, CustomStringConvertible {
    let message: String
    var description: String { "cc could not build the wrong-clock library: \(message)" }
}
