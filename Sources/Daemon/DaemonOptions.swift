import AudioHost
import Control
import Hub
import MIDICore
import Plugins
import Remote
import RTPMIDI

/// How `midihub serve` runs.
///
/// - Thread: any (a plain value).
public struct DaemonOptions: Sendable {
    /// A patch to start with instead of the saved state (or the embedded default).
    public var patchPath: String?
    /// The PCM device; `nil`: the graph's output node's device, else `default`.
    public var device: String?
    /// Where the state is saved and restored.
    public var statePath: String
    /// Run MIDI-only: no render engine, no PCM.
    public var audio: Bool
    /// ALSA, JACK, or JACK when a server runs (`serve --audio`).
    public var audioBackend: AudioBackendChoice
    /// Preset folder override for the synth.
    public var presetBank: String?
    /// The SoundFont the SoundFont instruments play; with one, the embedded default plays
    /// it instead of the built-in synth. `nil`: no font (those nodes stay silent).
    public var soundFont: String?
    public var driverOptions: AudioDriverOptions
    public var socket: ControlSocketPath
    /// The sequencer client's name, `midihub`.
    public var clientName: String
    /// How long another program's port may take no MIDI while MIDI waits for it before the
    /// hub gives up on it (`node-gone`, `overloaded`) until it reads again.
    public var receiverTimeout: HostDuration
    /// Where to serve the web remote (docs/remote.md); `nil`: no remote.
    public var remote: ListenAddress?
    /// Where to take OSC over UDP (docs/osc.md); `nil`: no OSC.
    public var osc: ListenAddress?
    /// The networks OSC and RTP-MIDI invitations may come from (`serve --allow`).
    public var allowList: PeerAllowList
    /// Whether plugin nodes run in processes of their own (`serve --isolate-plugins`, a
    /// node's `isolate:`), and how (docs/plugins.md, "Isolated plugins").
    public var pluginIsolation: PluginIsolation

    public init(patchPath: String? = nil, device: String? = nil, statePath: String = StateStore.defaultPath(),
                audio: Bool = true, audioBackend: AudioBackendChoice = .alsa, presetBank: String? = nil, soundFont: String? = nil,
                driverOptions: AudioDriverOptions = AudioDriverOptions(), socket: ControlSocketPath = .resolve(),
                clientName: String = "midihub", receiverTimeout: HostDuration = 60, remote: ListenAddress? = nil,
                osc: ListenAddress? = nil, allowList: PeerAllowList = .everyone, pluginIsolation: PluginIsolation = PluginIsolation()) {
        self.patchPath = patchPath
        self.device = device
        self.statePath = statePath
        self.audio = audio
        self.audioBackend = audioBackend
        self.presetBank = presetBank
        self.soundFont = soundFont
        self.driverOptions = driverOptions
        self.socket = socket
        self.clientName = clientName
        self.receiverTimeout = receiverTimeout
        self.remote = remote
        self.osc = osc
        self.allowList = allowList
        self.pluginIsolation = pluginIsolation
    }
}
