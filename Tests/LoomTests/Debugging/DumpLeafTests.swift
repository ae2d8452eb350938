import Foundation
import Loom
import Testing

struct DumpLeafTests {
  @Test func stringsAreQuotedAndEscapedLikeLiterals() {
    #expect(loomDump("plain") == #""plain""#)
    #expect(loomDump("say \"hi\"\n\tand \\ bye") == #""say \"hi\"\n\tand \\ bye""#)
    #expect(loomDump("bell\u{7}") == #""bell\u{7}""#)
    #expect(loomDump("café 👋") == #""café 👋""#)
    #expect(loomDump(Character("x")) == #""x""#)
    #expect(loomDump("a,b".split(separator: ",")) == #"["a", "b"]"#)
  }

  @Test func numbersAndBooleansPrintPlainly() {
    #expect(loomDump(-3) == "-3")
    #expect(loomDump(UInt8(255)) == "255")
    #expect(loomDump(1.5) == "1.5")
    #expect(loomDump(Float(0.25)) == "0.25")
    #expect(loomDump(true) == "true")
  }

  @Test func datesPrintInISO8601WithTheFractionTheyHave() {
    #expect(loomDump(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(loomDump(Date(timeIntervalSince1970: 1_700_000_000.25)) == "2023-11-14T22:13:20.25Z")
  }

  @Test func uuidsAndURLsPrintAsTheirStrings() {
    let id = UUID(uuidString: "DEADBEEF-0000-0000-0000-000000000001")
    #expect(loomDump(id) == "DEADBEEF-0000-0000-0000-000000000001")
    #expect(loomDump(URL(string: "https://example.com/a?b=1")) == "https://example.com/a?b=1")
  }

  @Test func foundationValuesPrintTheirDescription() {
    #expect(loomDump(Decimal(string: "1.50")) == "1.5")
  }

  @Test func smallDataPrintsItsBytesAndLargeDataItsSize() {
    #expect(loomDump(Data()) == "Data()")
    #expect(loomDump(Data([0xDE, 0xAD, 0x0F])) == "Data(0xdead0f)")
    #expect(loomDump(Data(count: 100)) == "Data(100 bytes)")
  }

  @Test func durationsPrintTheirDescription() {
    #expect(loomDump(Duration.seconds(2)) == "2.0 seconds")
  }
}
