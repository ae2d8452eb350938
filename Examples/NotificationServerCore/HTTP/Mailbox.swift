import Foundation
import Loom

/// What the server's handlers and event streams tell its loop thread.
enum LoopMessage: Sendable {
  /// A handler's response to the request of a connection.
  case respond(UInt64, HTTPResponse)
  /// Bytes of an event stream to send.
  case streamData(UInt64, [UInt8])
  /// An event stream ended: close the connection once its bytes are sent.
  case streamEnded(UInt64)
}

/// Messages to the loop thread, and the pipe that wakes its `poll` when one arrives.
///
/// The mailbox owns both ends of the pipe and closes them only when the last reference goes,
/// so a late message from a handler that outlived the loop writes to a pipe that still exists,
/// never to a descriptor number reused since.
final class Mailbox: Sendable {
  let wakeRead: Int32
  private let wakeWrite: Int32
  private let state = LockedState(State())

  private struct State {
    var messages: [LoopMessage] = []
    var isStopped = false
  }

  init() throws(ServerError) {
    (wakeRead, wakeWrite) = try Socket.wakePipe()
  }

  deinit {
    Socket.close(wakeRead)
    Socket.close(wakeWrite)
  }

  func post(_ message: LoopMessage) {
    state.withLock { $0.messages.append(message) }
    Socket.wake(wakeWrite)
  }

  func stop() {
    state.withLock { $0.isStopped = true }
    Socket.wake(wakeWrite)
  }

  var isStopped: Bool { state.withLock { $0.isStopped } }

  /// The messages posted since the last call, oldest first.
  func take() -> [LoopMessage] {
    state.withLock { state in
      defer { state.messages = [] }
      return state.messages
    }
  }
}
