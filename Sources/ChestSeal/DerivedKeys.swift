import ChestCore

/// Argon2id results kept by their inputs, the most recent first out of room last: places that share a grid share a
/// cell's key, so the seal worker derives it once for all of them (docs/DESIGN.md "Sealed pages", "Late keys").
package struct DerivedKeys {
    package let capacity: Int
    private var keys: [KeyRequest.Derivation: [UInt8]] = [:]
    private var order: [KeyRequest.Derivation] = []

    package init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
    }

    package subscript(derivation: KeyRequest.Derivation) -> [UInt8]? {
        get { keys[derivation] }
        set {
            guard let newValue else { return }
            if keys.updateValue(newValue, forKey: derivation) == nil {
                order.append(derivation)
                if order.count > capacity { keys[order.removeFirst()] = nil }
            }
        }
    }
}
