import Foundation
import Testing

import NotificationClients

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
  }
}
