import Foundation
import LumenCrawl
import LumenExtract
import LumenStore

/// What the worker-pool tests share: the `lumen` binary built beside this test bundle (it is
/// the worker), the shipped rules, and corpus files to extract.
enum WorkerSupport {
  /// `lumen` in the build products folder that holds this test bundle.
  static let lumen: String = {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("lumen").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      folder.deleteLastPathComponent()
    }
    return CrawlHarness.packageRoot + "/.build/debug/lumen"
  }()

  static let rules: RuleSet = try! RuleSet.load(
    shippedDirectory: CrawlHarness.packageRoot + "/rules", userDirectory: nil)

  static let corpus = CrawlHarness.packageRoot + "/../shared/corpus"

  static func service(catalog: ExtractorCatalog = .standard) -> ExtractionService {
    ExtractionService(rules: rules, catalog: catalog)
  }

  /// A pool of `workers` real workers; `faults` is `LUMEN_WORKER_FAULTS` for them.
  static func pool(
    workers: Int = 2, faults: String? = nil, catalog: ExtractorCatalog = .standard
  ) throws -> WorkerPoolExtraction {
    var environment = ProcessInfo.processInfo.environment
    environment["LUMEN_WORKER_FAULTS"] = faults
    return try WorkerPoolExtraction(
      service: service(catalog: catalog),
      options: .init(executable: lumen, workers: workers, environment: environment))
  }

  /// Copies corpus files into the tree under `folder`, keeping their names.
  static func copy(_ corpusPaths: [String], into tree: TemporaryTree, folder: String = "media") {
    for relative in corpusPaths {
      let source = corpus + "/" + relative
      let bytes = try! Array(Data(contentsOf: URL(fileURLWithPath: source)))
      tree.write(folder + "/" + (relative as NSString).lastPathComponent, bytes)
    }
  }

  static let mediaFiles = [
    "images/DSCN0010.jpg", "images/Canon_40D.jpg", "images/72-dpi.tiff",
    "audio/beets-full.mp3", "audio/beets-full.flac", "audio/cbr.mp3",
  ]
}

/// Wraps an extraction step and does something to the file first: deletes it or appends to
/// it, as a person saving over a file in the middle of a crawl does.
final class InterferingExtraction: FileExtracting {
  let inner: any FileExtracting
  let interfere: @Sendable (String) -> Void

  init(_ inner: any FileExtracting, interfere: @escaping @Sendable (String) -> Void) {
    self.inner = inner
    self.interfere = interfere
  }

  func isCurrent(_ stamp: ExtractorStamp?) -> Bool { inner.isCurrent(stamp) }

  func extract(_ request: ExtractionRequest) -> FileExtraction? {
    interfere(request.path)
    return inner.extract(request)
  }
}
