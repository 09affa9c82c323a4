import Glibc

/// Why a frame could not be read or written.
enum FrameError: Error, CustomStringConvertible {
  case io(String, Int32)
  case truncated
  case tooLarge(Int)

  var description: String {
    switch self {
    case .io(let call, let code): "\(call): \(String(cString: strerror(code)))"
    case .truncated: "the stream ended inside a frame"
    case .tooLarge(let count): "a frame of \(count) bytes, over the \(FrameCodec.maximumPayload)"
    }
  }
}
