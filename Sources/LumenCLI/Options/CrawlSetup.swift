import ArgumentParser
import LumenCrawl

/// What `lumen index` and `lumen watch` read before they crawl, the same way: the config file
/// and the rules, each a clear message and exit status 1 when broken.
struct CrawlSetup {
  let config: Config
  let rules: LoadedRules

  static func load() throws -> CrawlSetup {
    let config: Config
    do {
      config = try Config.load()
    } catch {
      printError(error.description)
      throw ExitCode.failure
    }
    let rules: LoadedRules
    do { rules = try LoadedRules.load() } catch { throw ExitCode.failure }
    return CrawlSetup(config: config, rules: rules)
  }
}
