import Foundation
import XCTest

final class IntrospectionTests: BusTestCase {
    /// What `busctl introspect --xml-interface` prints for the exported object: the XML a
    /// contract file under dbus/ will be compared against.
    private func introspect() throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("introspect-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = try spawnAndWait(["/usr/bin/busctl", "--address=\(bus.address)", "introspect", "--xml-interface",
                                       serverName, TestService.path], stdoutTo: output)
        XCTAssertEqual(status, 0)
        return try String(contentsOfFile: output, encoding: .utf8)
    }

    func testIntrospectionListsEveryMemberWithArgumentNamesAndAnnotations() throws {
        let xml = try introspect()
        let expected = """
             <interface name="org.lensd.Test1">
              <method name="Echo">
               <arg type="s" name="text" direction="in"/>
               <arg type="s" name="text" direction="out"/>
              </method>
              <method name="Add">
               <arg type="i" name="a" direction="in"/>
               <arg type="i" name="b" direction="in"/>
               <arg type="i" name="sum" direction="out"/>
              </method>
              <method name="Refuse">
              </method>
              <method name="Later">
               <arg type="s" name="text" direction="in"/>
               <arg type="s" name="text" direction="out"/>
              </method>
              <method name="Drop">
               <arg type="s" name="text" direction="out"/>
              </method>
              <method name="WrongReply">
               <arg type="s" name="text" direction="out"/>
              </method>
              <method name="OpenFile">
               <arg type="h" name="fd" direction="out"/>
               <arg type="t" name="size" direction="out"/>
              </method>
              <method name="Mirror">
               <arg type="v" name="value" direction="in"/>
               <arg type="v" name="value" direction="out"/>
              </method>
              <method name="Emit">
               <arg type="s" name="target" direction="in"/>
              </method>
              <method name="Configure">
               <arg type="a{sv}" name="options" direction="in"/>
              </method>
              <property name="Name" type="s" access="readwrite">
              </property>
              <property name="Version" type="s" access="read">
               <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>
              </property>
              <property name="Secret" type="s" access="read">
              </property>
              <property name="Misnamed" type="s" access="read">
              </property>
              <property name="Counter" type="u" access="read">
               <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="invalidates"/>
              </property>
              <property name="Scratch" type="d" access="readwrite">
               <annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="false"/>
              </property>
              <signal name="Ping">
               <arg type="s" name="message"/>
               <arg type="b" name="unicast"/>
              </signal>
             </interface>
            """
        XCTAssertTrue(xml.contains(expected), "introspection was:\n\(xml)")
        // UNPRIVILEGED everywhere: no member is marked as needing privileges.
        XCTAssertFalse(xml.contains("org.freedesktop.systemd1.Privileged"))
    }
}
