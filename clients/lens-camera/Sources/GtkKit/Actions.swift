import CGtk

/// A named action (GSimpleAction) that menu items, shortcuts and buttons trigger: `win.NAME` once
/// added to a window. A stateful one holds a string: a choice among values (flash off|on|auto),
/// which menus show as radio items.
public final class Action {
    let action: OpaquePointer
    public let name: String

    public init(_ name: String, _ activate: @escaping () -> Void) {
        self.name = name
        action = g_simple_action_new(name, nil)
        Signals.connectPointer(raw, "activate") { _ in activate() }
    }

    /// A choice now set to `state`; `chosen` gets the value a menu item or `choose` asks for, and
    /// decides whether it becomes the state (`state = …`).
    public init(_ name: String, state: String, chosen: @escaping (String) -> Void) {
        self.name = name
        action = g_simple_action_new_stateful(name, lens_variant_type_string(), g_variant_new_string(state))
        Signals.connectPointer(raw, "change-state") { value in
            guard let value, let text = g_variant_get_string(OpaquePointer(value), nil) else { return }
            chosen(String(cString: text))
        }
    }

    deinit { g_object_unref(raw) }

    var raw: gpointer { UnsafeMutableRawPointer(action) }

    public var state: String {
        get {
            guard let value = g_action_get_state(action) else { return "" }
            defer { g_variant_unref(value) }
            return g_variant_get_string(value, nil).map { String(cString: $0) } ?? ""
        }
        set { g_simple_action_set_state(action, g_variant_new_string(newValue)) }
    }

    /// A disabled action's menu items and buttons are insensitive.
    public var isEnabled: Bool {
        get { g_action_get_enabled(action) != 0 }
        set { g_simple_action_set_enabled(action, newValue ? 1 : 0) }
    }
}

/// A menu model (GMenu): items naming actions (`win.about`, `win.flash::on` for a choice), and
/// sections between separators.
public final class Menu {
    let menu: OpaquePointer

    public init() { menu = g_menu_new() }
    deinit { g_object_unref(UnsafeMutableRawPointer(menu)) }

    public func append(_ label: String, action: String) { g_menu_append(menu, label, action) }
    public func appendSection(_ section: Menu) { g_menu_append_section(menu, nil, section.model) }

    var model: UnsafeMutablePointer<GMenuModel> { UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self) }
}
