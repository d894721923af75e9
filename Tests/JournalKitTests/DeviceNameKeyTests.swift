import Testing
import TestSupport

@testable import JournalKit

/// The key device names are compared by.
@Suite(.onTestThreads) struct DeviceNameKeyTests {
    @Test func namesThatLookAlikeHaveOneKey() {
        let key = DeviceNameKey("work laptop")
        for name in ["Work Laptop", "ｗｏｒｋ ｌａｐｔｏｐ", "w\u{43E}rk laptop", "WORK  LAPTOP ", "work\u{200B} laptop", "work\u{A0}laptop"] {
            #expect(DeviceNameKey(name) == key, "\(name)")
        }
        #expect(DeviceNameKey("İstanbul office") == DeviceNameKey("istanbul office"))
        #expect(DeviceNameKey("ΣΟΦΙΑΣ") == DeviceNameKey("σοφιας"))
    }

    @Test func namesThatDifferHaveDifferentKeys() {
        #expect(DeviceNameKey("work laptop") != DeviceNameKey("home laptop"))
        #expect(DeviceNameKey("work laptop") != DeviceNameKey("worklaptop"))
        #expect(DeviceNameKey("laptop 1") != DeviceNameKey("laptop 2"))
    }
}
