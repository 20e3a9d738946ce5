internal import CLilv
import Glibc
import Synchronization

/// The host's `urid:map` and `urid:unmap`: one number for each URI a plugin asks about, the
/// same for every plugin of the process (a plugin may pass URIDs to another through atoms).
/// Plugins map at instantiation, off the render thread; one that maps from `run()` takes a
/// short lock there.
///
/// - Thread: any (its table behind a lock).
final class URIDMap: @unchecked Sendable {
    private struct Table: @unchecked Sendable {
        var ids: [String: LV2_URID] = [:]
        var uris: [UnsafeMutablePointer<CChar>] = []
    }

    private let table = Mutex(Table())
    /// The two features' data, at fixed addresses for as long as the map lives.
    let map: UnsafeMutablePointer<LV2_URID_Map>
    let unmap: UnsafeMutablePointer<LV2_URID_Unmap>

    /// - Thread: control.
    init() {
        map = .allocate(capacity: 1)
        unmap = .allocate(capacity: 1)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        map.initialize(to: LV2_URID_Map(handle: handle) { handle, uri in
            guard let handle, let uri else { return 0 }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().id(of: uri)
        })
        unmap.initialize(to: LV2_URID_Unmap(handle: handle) { handle, id in
            guard let handle else { return nil }
            return Unmanaged<URIDMap>.fromOpaque(handle).takeUnretainedValue().uri(of: id)
        })
    }

    deinit {
        table.withLock { $0.uris.forEach { free($0) } }
        map.deallocate()
        unmap.deallocate()
    }

    /// The number of `uri` (1, 2, …: 0 is no URI), given it the first time it is asked for.
    /// - Thread: any.
    func id(of uri: UnsafePointer<CChar>) -> LV2_URID {
        let text = String(cString: uri)
        return table.withLock { table in
            if let id = table.ids[text] { return id }
            table.uris.append(strdup(uri))
            let id = LV2_URID(table.uris.count)
            table.ids[text] = id
            return id
        }
    }

    /// The number of `uri`.
    /// - Thread: any.
    func id(of uri: String) -> LV2_URID {
        uri.withCString { id(of: $0) }
    }

    /// The URI numbered `id`, as a C string that lives as long as the map, or nil.
    /// - Thread: any.
    func uri(of id: LV2_URID) -> UnsafePointer<CChar>? {
        table.withLock { table in
            id >= 1 && Int(id) <= table.uris.count ? UnsafePointer(table.uris[Int(id) - 1]) : nil
        }
    }
}
