internal import CLilv
import Foundation

/// A `patch:Set` of a file property (eg-sampler's sample) as the atom a plugin reads on its
/// control input: an `atom:Object` of type `patch:Set` with `patch:property` (the property's
/// URID) and `patch:value` (an `atom:Path`). Encoded on the control side; its bytes cross to
/// the render thread whole.
///
/// - Thread: control.
enum PatchSetMessage {
    /// The atom (header and body) setting `property` to `path`, through `urids`.
    static func bytes(property: String, path: String, urids: URIDMap) -> [UInt8] {
        var bytes: [UInt8] = []
        func put(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func pad() { while bytes.count % 8 != 0 { bytes.append(0) } }
        let text = Array(path.utf8) + [0]
        let body = 8 + 24 + (16 + (text.count + 7) & ~7)
        put(UInt32(body)); put(urids.id(of: LV2Vocabulary.atomObject))
        put(0); put(urids.id(of: LV2Vocabulary.patchSet))
        put(urids.id(of: LV2Vocabulary.patchProperty)); put(0)
        put(4); put(urids.id(of: LV2Vocabulary.atomURID)); put(urids.id(of: property)); pad()
        put(urids.id(of: LV2Vocabulary.patchValue)); put(0)
        put(UInt32(text.count)); put(urids.id(of: LV2Vocabulary.atomPath)); bytes += text; pad()
        return bytes
    }
}
