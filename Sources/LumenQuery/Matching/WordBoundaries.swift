/// The one rule for where words start and end, shared by `WordSplitter`, the pattern compiler of
/// `TextMatcher` and its ASCII fast path, so a pattern and a value are always cut the same way.
///
/// A word is a run of letters and digits (Unicode general categories L* and N*); combining marks
/// (M*) continue the word they follow, so a decomposed "é" stays inside its word. A lowercase
/// letter followed by an uppercase (or titlecase) letter starts a new word — `MyWindowClass` is
/// My, Window, Class — while uppercase followed by uppercase does not, so `NSWindow` stays one
/// word and `"Window"w` does not match it (Apple's documented behaviour).
struct WordBoundaryTracker {
  enum Step {
    /// Not part of any word.
    case separator
    /// Begins a new word (after a separator, or at a lower→upper case change).
    case startsWord
    /// Extends the current word.
    case continuesWord
  }

  private var inWord = false
  private var previousWasLowercase = false

  mutating func step(_ scalar: Unicode.Scalar) -> Step {
    step(WordScalarClass(scalar))
  }

  /// `step` for one byte of ASCII text.
  @inline(__always)
  mutating func step(ascii byte: UInt8) -> Step {
    step(WordScalarClass.ascii(byte))
  }

  @inline(__always)
  private mutating func step(_ scalarClass: WordScalarClass) -> Step {
    switch scalarClass {
    case .lowercase: return letterOrDigit(isUppercase: false, isLowercase: true)
    case .uppercase: return letterOrDigit(isUppercase: true, isLowercase: false)
    case .otherLetterOrDigit: return letterOrDigit(isUppercase: false, isLowercase: false)
    case .mark:
      // A combining mark belongs to the word it follows and leaves the case state alone.
      return inWord ? .continuesWord : .separator
    case .separator:
      inWord = false
      previousWasLowercase = false
      return .separator
    }
  }

  /// A `*` inside a pattern word: part of the word, and it forgets the case of what came before,
  /// so `win*Class` stays one word.
  mutating func wildcard() -> Step {
    defer {
      inWord = true
      previousWasLowercase = false
    }
    return inWord ? .continuesWord : .startsWord
  }

  private mutating func letterOrDigit(isUppercase: Bool, isLowercase: Bool) -> Step {
    defer {
      inWord = true
      previousWasLowercase = isLowercase
    }
    if inWord && !(previousWasLowercase && isUppercase) { return .continuesWord }
    return .startsWord
  }
}

/// How one scalar takes part in words.
@usableFromInline
enum WordScalarClass {
  case lowercase
  case uppercase
  case otherLetterOrDigit
  case mark
  case separator

  init(_ scalar: Unicode.Scalar) {
    let value = scalar.value
    if value < 0x80 {
      self = Self.ascii(UInt8(value))
      return
    }
    switch scalar.properties.generalCategory {
    case .lowercaseLetter: self = .lowercase
    case .uppercaseLetter, .titlecaseLetter: self = .uppercase
    case .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber:
      self = .otherLetterOrDigit
    case .nonspacingMark, .spacingMark, .enclosingMark: self = .mark
    default: self = .separator
    }
  }

  @inlinable
  static func ascii(_ byte: UInt8) -> WordScalarClass {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"): .lowercase
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): .uppercase
    case UInt8(ascii: "0")...UInt8(ascii: "9"): .otherLetterOrDigit
    default: .separator
    }
  }
}
