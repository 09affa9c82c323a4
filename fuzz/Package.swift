// swift-tools-version: 6.1
// Lumen's libFuzzer targets: one per extractor and one for the query language. Built only by
// bench/fuzz, with -sanitize=fuzzer,address, into fuzz/.build; never part of the regular build
// or tests. Each target's main hands the process to libFuzzer (LLVMFuzzerRunDriver).
import PackageDescription

let extractors = [
  "Photo", "Music", "PDF", "OpenDocument", "OOXML", "EPUB", "HTML", "Text",
]

let package = Package(
  name: "LumenFuzz",
  dependencies: [.package(name: "Lumen", path: "..")],
  targets: [
    .target(name: "CFuzzer", path: "Targets/CFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: ["CFuzzer", .product(name: "LumenExtract", package: "Lumen")],
      path: "Targets/FuzzSupport",
      swiftSettings: [.swiftLanguageMode(.v6)]),
    .executableTarget(
      name: "FuzzQuery",
      dependencies: ["FuzzSupport", .product(name: "Lumen", package: "Lumen")],
      path: "Targets/FuzzQuery",
      swiftSettings: [.swiftLanguageMode(.v6)]),
  ]
    + extractors.map { name in
      .executableTarget(
        name: "Fuzz\(name)",
        dependencies: ["FuzzSupport", .product(name: "LumenExtract", package: "Lumen")],
        path: "Targets/Fuzz\(name)",
        swiftSettings: [.swiftLanguageMode(.v6)])
    }
)
