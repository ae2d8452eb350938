import Foundation
import Notifications
import Testing

/// The API's ISO-8601 dates.
struct ISO8601Tests {
  @Test func formatsInUTCWithMillisecondsRounded() {
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000)) == "2023-11-14T22:13:20.000Z"
    )
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000.0126))
        == "2023-11-14T22:13:20.013Z")
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 1_700_000_000.9996))
        == "2023-11-14T22:13:21.000Z")
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
  }

  @Test func parsesWithOrWithoutFractionsAndWithAnyOffset() {
    let expected = Date(timeIntervalSince1970: 1_700_000_000)
    #expect(ISO8601.date(from: "2023-11-14T22:13:20Z") == expected)
    #expect(ISO8601.date(from: "2023-11-14T22:13:20.000Z") == expected)
    #expect(ISO8601.date(from: "2023-11-14T23:43:20+01:30") == expected)
    #expect(ISO8601.date(from: "2023-11-14T20:13:20-02:00") == expected)
  }

  @Test func rejectsOtherForms() {
    for text in ["", "2023-11-14", "2023-11-14T22:13:20", "2023-11-14 22:13:20Z", "1700000000"] {
      #expect(ISO8601.date(from: text) == nil, "\(text)")
    }
  }

  @Test func formattingAParsedDateGivesTheSameText() {
    for millisecond in 0..<1_000 {
      let digits = String(millisecond)
      let text = "2023-11-14T22:13:20.\(String(repeating: "0", count: 3 - digits.count))\(digits)Z"
      #expect(ISO8601.date(from: text).map(ISO8601.string(from:)) == text)
    }
  }

  @Test func datesWithoutAFourDigitYearHaveNoText() {
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: .nan)) == nil)
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: .infinity)) == nil)
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1e300)) == nil)
    #expect(ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_800)) == nil)
    #expect(
      ISO8601.string(from: Date(timeIntervalSince1970: 253_402_300_799))
        == "9999-12-31T23:59:59.000Z")
    #expect(ISO8601.string(from: .distantFuture) != nil)
    #expect(ISO8601.string(from: .distantPast) != nil)
  }
}
