import Foundation
import Testing

import NotificationClients
import Notifications

struct LossyDecodingTests {
  @Test func oneBadItemIsReportedAndSkippedNotFatalToThePage() throws {
    let json = """
      {"items":[
        {"id":"a","type":"ping","title":"A","message":"","timestamp":"2023-11-14T22:13:20Z"},
        {"id":"b","type":"ping","title":"B","message":""},
        {"id":"c","type":"alert","title":"C","message":"","timestamp":"2023-11-14T22:13:20Z"}
      ],"nextCursor":null,"hasMore":false}
      """
    let page = try JSONDecoder().decode(LossyPage.self, from: Data(json.utf8))
    #expect(page.items.map(\.id) == ["a", "c"])
    #expect(page.problems == [#"missing field "items.[1].timestamp""#])
    #expect(page.unreadTotal == nil)
    #expect(page.unreadTotalProblem == nil)
  }

  @Test func theUnreadTotalIsDecodedWhenTheServerSendsIt() throws {
    let json = #"{"items":[],"nextCursor":"50","hasMore":true,"unreadTotal":120}"#
    let page = try JSONDecoder().decode(LossyPage.self, from: Data(json.utf8))
    #expect(page.unreadTotal == 120)
    #expect(page.unreadTotalProblem == nil)
  }

  @Test func anUnreadTotalThatIsNotACountIsReportedAndLeftOutNotFatalToThePage() throws {
    for (total, problem) in [
      (#""many""#, #"field "unreadTotal": Expected to decode Int but found a string instead."#),
      ("-3", #"field "unreadTotal": -3 is negative"#),
    ] {
      let json = #"{"items":[],"hasMore":false,"unreadTotal":\#(total)}"#
      let page = try JSONDecoder().decode(LossyPage.self, from: Data(json.utf8))
      #expect(page.unreadTotal == nil)
      #expect(page.unreadTotalProblem == problem)
    }
  }

  @Test func theChangeCursorIsDecodedWhenTheServerSendsIt() throws {
    let json = #"{"items":[],"hasMore":false,"unreadTotal":0,"changeCursor":"42"}"#
    let page = try JSONDecoder().decode(LossyPage.self, from: Data(json.utf8))
    #expect(page.changeCursor == 42)
    let older = #"{"items":[],"hasMore":false,"unreadTotal":0}"#
    #expect(try JSONDecoder().decode(LossyPage.self, from: Data(older.utf8)).changeCursor == nil)
  }

  @Test func aPageEncodedWithoutAChangeCursorDecodesWithout() throws {
    let old = #"{"items":[],"nextCursor":null,"hasMore":false,"unreadTotal":3}"#
    let page = try JSONDecoder().decode(NotificationPage.self, from: Data(old.utf8))
    #expect(page == NotificationPage(items: [], unreadTotal: 3, changeCursor: nil))
    let encoded = try JSONEncoder().encode(NotificationPage(items: [], changeCursor: 9))
    let decoded = try JSONDecoder().decode(NotificationPage.self, from: encoded)
    #expect(decoded.changeCursor == 9)
  }

  @Test func aPageEncodedWithoutAnUnreadTotalDecodesWithout() throws {
    let old = #"{"items":[],"nextCursor":null,"hasMore":false}"#
    let page = try JSONDecoder().decode(NotificationPage.self, from: Data(old.utf8))
    #expect(page == NotificationPage(items: []))
    let encoded = try JSONEncoder().encode(NotificationPage(items: []))
    #expect(!String(decoding: encoded, as: UTF8.self).contains("unreadTotal"))
  }
}
