import Foundation
import Glibc

/// Runs a program to completion with stdout sent to a file, and returns its exit status.
/// posix_spawn + waitpid rather than Foundation's Process: Process.waitUntilExit never
/// returned for `dbus-daemon --fork`, whose daemon outlives the parent it waits for.
func spawnAndWait(_ arguments: [String], stdoutTo outputPath: String) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard spawned == 0 else { throw SpawnError(program: arguments[0], errno: spawned) }

    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    // WIFEXITED / WEXITSTATUS are macros; a normal exit leaves the low 7 bits zero.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
}

struct SpawnError: Error {
    var program: String
    var errno: Int32
}
