import Foundation
import Testing

/// Examples/CaseStudies/README.md's sizes are the studies' sizes now.
struct ReadmeTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Lines neither blank nor only a comment, as `count-lines` counts them.
  static func linesOfCode(_ path: String) throws -> Int {
    let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    var count = 0
    var inBlock = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = line.trimmingCharacters(in: .whitespaces)
      if inBlock {
        if line.contains("*/") { inBlock = false }
        continue
      }
      if line.hasPrefix("/*") {
        inBlock = !line.contains("*/")
        continue
      }
      if line.isEmpty || line.hasPrefix("//") { continue }
      count += 1
    }
    return count
  }

  @Test func theTableGivesEachStudysSizeAsItIs() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("Examples/CaseStudies/README.md"),
      encoding: .utf8)
    let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| [") }
    #expect(rows.count == 11)
    for row in rows {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      let study = String(cells[0].dropFirst().prefix { $0 != "]" })
      let reducer = try Self.linesOfCode("Examples/CaseStudies/\(study).swift")
      let test = try Self.linesOfCode("Tests/CaseStudiesTests/\(study)Tests.swift")
      #expect(cells[2] == "\(reducer) + \(test) = \(reducer + test)", "\(study)")
    }
  }
}
