// swift-tools-version: 6.1
// Lumen: Spotlight for Linux. Data flows one way through the targets below, each importing only
// the ones listed before it: C doors → LumenModel → LumenQuery → LumenStore → LumenExtract →
// LumenCrawl → the `lumen` command.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "Lumen",
  products: [
    .library(name: "Lumen", targets: ["Lumen"]),
    .executable(name: "lumen", targets: ["LumenCLI"]),
    // For tools built apart from the package, such as the fuzz targets in fuzz/.
    .library(name: "LumenExtract", targets: ["LumenExtract"]),
  ],
  dependencies: [
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
  ],
  targets: [
    // MARK: C doors: a module map and at most a small shim each, imported by exactly one wrapper.
    .systemLibrary(name: "CMagic", path: "Sources/CDoors/CMagic", pkgConfig: "libmagic",
                   providers: [.apt(["libmagic-dev"])]),
    .systemLibrary(name: "CExif", path: "Sources/CDoors/CExif", pkgConfig: "libexif",
                   providers: [.apt(["libexif-dev"])]),
    .systemLibrary(name: "CXML2", path: "Sources/CDoors/CXML2", pkgConfig: "libxml-2.0",
                   providers: [.apt(["libxml2-dev"])]),
    .systemLibrary(name: "CTagLib", path: "Sources/CDoors/CTagLib", pkgConfig: "taglib_c",
                   providers: [.apt(["libtagc0-dev"])]),
    .systemLibrary(name: "CQPDF", path: "Sources/CDoors/CQPDF", pkgConfig: "libqpdf",
                   providers: [.apt(["libqpdf-dev"])]),
    .systemLibrary(name: "CPoppler", path: "Sources/CDoors/CPoppler", pkgConfig: "poppler-glib",
                   providers: [.apt(["libpoppler-glib-dev"])]),
    .target(name: "CTagShim", path: "Sources/CDoors/CTagShim",
            linkerSettings: [.linkedLibrary("tag")]),
    .systemLibrary(name: "CStatx", path: "Sources/CDoors/CStatx"),
    .systemLibrary(name: "CSandbox", path: "Sources/CDoors/CSandbox"),
    .systemLibrary(name: "CKernelCalls", path: "Sources/CDoors/CKernelCalls"),

    // MARK: Lumen's layers.
    .target(name: "LumenModel", swiftSettings: strict),
    .target(name: "LumenQuery", dependencies: ["LumenModel"], swiftSettings: strict),
    .target(
      name: "LumenStore",
      dependencies: [
        "LumenModel", "LumenQuery",
        .product(name: "GRDB", package: "GRDB.swift"),
        // SQLite's C API, for the query functions' per-statement matcher cache (auxdata).
        .product(name: "GRDBSQLite", package: "GRDB.swift"),
      ],
      swiftSettings: strict),
    .target(
      name: "LumenExtract",
      dependencies: [
        "LumenModel", "CMagic", "CExif", "CXML2", "CTagLib", "CTagShim", "CQPDF", "CPoppler",
        .product(name: "ZIPFoundation", package: "ZIPFoundation"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict),
    .target(
      name: "LumenCrawl",
      dependencies: [
        "LumenModel", "LumenStore", "LumenExtract", "CStatx", "CSandbox", "CKernelCalls",
        .product(name: "TOMLKit", package: "TOMLKit"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict),
    // The library product: what a Swift program imports to index and query its own items.
    .target(name: "Lumen", dependencies: ["LumenModel", "LumenQuery", "LumenStore"],
            swiftSettings: strict),
    .executableTarget(
      name: "LumenCLI",
      dependencies: [
        "Lumen", "LumenExtract", "LumenCrawl",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict),

    // MARK: Benchmarks (run by bench/*, never by tests).
    .executableTarget(
      name: "ExtractBench", dependencies: ["LumenExtract"], path: "bench/ExtractBench",
      swiftSettings: strict),
    .executableTarget(
      name: "QueryBench", dependencies: ["LumenModel", "LumenQuery", "LumenStore"],
      path: "bench/QueryBench", swiftSettings: strict),
    // The hostile-input corpus generator of the CLI tests and bench/faults.
    .executableTarget(
      name: "HostileCorpus",
      dependencies: [.product(name: "ZIPFoundation", package: "ZIPFoundation")],
      path: "bench/HostileCorpus", swiftSettings: strict),

    // MARK: Tests: real SQLite files, real files, the real binary.
    // What more than one test target needs: seeded randomness, waiting off the cooperative pool.
    .target(name: "LumenTestSupport", path: "Tests/LumenTestSupport", swiftSettings: strict),
    .testTarget(
      name: "LumenModelTests", dependencies: ["LumenModel", "LumenTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LumenQueryTests", dependencies: ["LumenQuery", "LumenTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LumenStoreTests", dependencies: ["LumenStore", "Lumen", "LumenTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LumenExtractTests", dependencies: ["LumenExtract", "LumenStore", "LumenTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LumenCrawlTests", dependencies: ["LumenCrawl", "LumenTestSupport"],
      swiftSettings: strict),
    .testTarget(
      name: "LumenCLITests",
      dependencies: [
        "LumenModel", "LumenTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
      ],
      swiftSettings: strict),
  ]
)
