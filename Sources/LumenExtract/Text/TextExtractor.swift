import LumenModel

/// Plain text, Markdown and source code: the text itself, bounded, plus a Markdown title.
///
/// The language of a source file is already in its content type (`public.swift-source`), which
/// the sniffer decided; this extractor only reads text.
public struct TextExtractor: Extractor {
  public static let name = "text"
  public static let version = 1

  public init() {}

  public func extract(_ request: ExtractionRequest) throws(ExtractionError) -> ExtractionOutcome {
    let contents = try BoundedFile.read(request)
    let decoded = TextTranscoder.decode(
      contents.bytes, declaredCharset: TextTranscoder.charset(inMIMEType: request.mimeType))
    var text = decoded.text
    if text.utf8.contains(0) { text = text.replacingNULs() }
    var outcome = ExtractionOutcome()
    if Self.isMarkdown(request), let title = MarkdownTitle.find(in: text) {
      outcome.attributes.set(.text(title), for: .title)
    }
    var budget = TextBudget(limit: request.limits.maxTextBytes)
    budget.append(text)
    if let body = budget.result { outcome.attributes.set(.text(body), for: .textContent) }
    return outcome
  }

  static func isMarkdown(_ request: ExtractionRequest) -> Bool {
    let mime = request.mimeType.split(separator: ";").first.map { $0.lowercased() } ?? ""
    if mime == "text/markdown" || mime == "text/x-markdown" { return true }
    if request.contentType == "net.daringfireball.markdown" { return true }
    let lowered = request.path.lowercased()
    return [".md", ".markdown", ".mdown", ".mkd"].contains { lowered.hasSuffix($0) }
  }
}

extension String {
  /// The string without NUL characters, which no index wants and some C APIs stop at.
  func replacingNULs() -> String {
    String(String.UnicodeScalarView(unicodeScalars.filter { $0.value != 0 }))
  }
}
