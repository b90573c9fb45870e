#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
private let systemListen = Glibc.listen
private let systemConnect = Glibc.connect
private let streamKind = Int32(SOCK_STREAM.rawValue)
/// `send` without SIGPIPE when the peer is gone.
private let noSignal = Int32(MSG_NOSIGNAL)
#elseif canImport(Darwin)
import Darwin
private let systemListen = Darwin.listen
private let systemConnect = Darwin.connect
private let streamKind = SOCK_STREAM
/// Darwin has no `MSG_NOSIGNAL`: its sockets are made with `SO_NOSIGPIPE` instead.
private let noSignal: Int32 = 0
#endif

/// The few Unix domain socket calls the control endpoint and its client make (Linux; the
/// Darwin spellings are written but not built here: README, Platforms).
package enum UnixSocket {
    #if canImport(Glibc)
    /// A socket's peer, as the kernel reports it (`struct ucred`, which Swift does not import).
    private struct PeerCredentials {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }
    #endif

    /// A close-on-exec stream socket (non-blocking when asked), that raises no SIGPIPE.
    private static func streamSocket(nonBlocking: Bool) -> Int32 {
        #if canImport(Glibc)
        return socket(AF_UNIX, streamKind | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0), 0)
        #else
        let descriptor = socket(AF_UNIX, streamKind, 0)
        guard descriptor >= 0 else { return descriptor }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        if nonBlocking { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
        #endif
    }

    /// Sets `O_NONBLOCK` and close-on-exec on a descriptor.
    package static func makeNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// The reason for the last failed call, for a message.
    package static var lastError: String {
        String(cString: strerror(errno))
    }

    /// A listening, non-blocking socket at `path`, mode 0600. A socket file left there by a
    /// program that has exited is replaced; a live one is not.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)``.
    package static func listen(at path: String) throws(JournalError) -> Int32 {
        var address = try self.address(path)
        if FileManager.default.fileExists(atPath: path) {
            var isSocket = false
            if let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
                isSocket = attributes[.type] as? FileAttributeType == .typeSocket
            }
            guard isSocket else {
                throw .cannotCreate(path: path, reason: "a file that is not a socket is there; remove it or choose another path")
            }
            if let live = try? connect(to: path) {
                close(live)
                throw .cannotCreate(path: path, reason: "another program is listening there")
            }
            unlink(path)
        }
        let descriptor = streamSocket(nonBlocking: true)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: path, reason: lastError)
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // Mode 0600 before listen(): until then a connection is refused, so no other user ever
        // connects through a wider mode.
        guard bound == 0, chmod(path, 0o600) == 0, systemListen(descriptor, 16) == 0 else {
            let reason = lastError
            close(descriptor)
            if bound == 0 { unlink(path) }
            throw .cannotCreate(path: path, reason: reason)
        }
        return descriptor
    }

    /// A blocking connection to the socket at `path`.
    ///
    /// - Throws: the `errno` of the failed call (`ENOENT`, `ECONNREFUSED`, …) as a POSIX error.
    package static func connect(to path: String) throws -> Int32 {
        var address = try self.address(path)
        let descriptor = streamSocket(nonBlocking: false)
        guard descriptor >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
        }
        return descriptor
    }

    /// The user id of the process at the other end of a connected socket.
    package static func peerUser(of descriptor: Int32) -> uid_t? {
        #if canImport(Glibc)
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            return nil
        }
        return credentials.uid
        #else
        var user: uid_t = 0
        var group: gid_t = 0
        return getpeereid(descriptor, &user, &group) == 0 ? user : nil
        #endif
    }

    /// Sends what it can without blocking and without SIGPIPE: the number of bytes sent (0 when
    /// the socket's buffer is full), or `nil` when the peer is gone.
    package static func sendSome(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        let sent = send(descriptor, bytes.baseAddress, bytes.count, noSignal | Int32(MSG_DONTWAIT))
        if sent >= 0 { return sent }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Sends all of `bytes`, blocking as needed (the client's side); `false` when the peer is gone.
    package static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, noSignal) }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    private static func address(_ path: String) throws(JournalError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            throw .cannotCreate(path: path, reason: "a socket path is at most \(capacity - 1) bytes; choose a shorter one")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        return address
    }
}
