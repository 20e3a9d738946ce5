import RenderCore
import SoundFont
import VoiceLanes

/// How a voice reads between sample frames.
///
/// - Thread: any (a plain value).
public enum SampleInterpolation: Int, CaseIterable, Sendable {
    /// Two points: cheapest, dullest (audible aliasing on high notes).
    case linear = 0
    /// Four points (Catmull-Rom, FluidSynth's default "4th order").
    case cubic = 1
    /// Six points, fifth-order Lagrange: the cleanest, for offline renders.
    case sixPoint = 2

    /// Frames the interpolator reads before and after the frame it starts from.
    var reach: (before: Int, after: Int) {
        switch self {
        case .linear: (0, 1)
        case .cubic: (1, 2)
        case .sixPoint: (2, 3)
        }
    }
}

/// One interpolation formula over `FrameSource`s.
/// - Thread: any (pure).
protocol Interpolator {
    static func value<Source: FrameSource>(_ source: Source, _ index: Int, _ fraction: Float) -> Float
}

/// - Thread: any (pure).
enum LinearInterpolator: Interpolator {
    @inline(__always)
    static func value<Source: FrameSource>(_ source: Source, _ index: Int, _ fraction: Float) -> Float {
        let a = source(index)
        return a + fraction * (source(index + 1) - a)
    }
}

/// - Thread: any (pure).
enum CubicInterpolator: Interpolator {
    @inline(__always)
    static func value<Source: FrameSource>(_ source: Source, _ index: Int, _ x: Float) -> Float {
        SampleMath.catmullRom(source(index - 1), source(index), source(index + 1), source(index + 2), at: x)
    }
}

/// - Thread: any (pure).
enum SixPointInterpolator: Interpolator {
    /// Lagrange through frames index-2 … index+3 (exact for polynomials up to degree 5).
    @inline(__always)
    static func value<Source: FrameSource>(_ source: Source, _ index: Int, _ x: Float) -> Float {
        let ym2 = source(index - 2), ym1 = source(index - 1), y0 = source(index)
        let y1 = source(index + 1), y2 = source(index + 2), y3 = source(index + 3)
        let ym1py1 = ym1 + y1
        let ym2py2 = (1.0 / 24) * (ym2 + y2)
        let c1 = (1.0 / 20) * ym2 - 0.5 * ym1 - (1.0 / 3) * y0 + y1 - 0.25 * y2 + (1.0 / 30) * y3
        let c2 = (2.0 / 3) * ym1py1 - 1.25 * y0 - ym2py2
        let c3 = (5.0 / 12) * y0 - (7.0 / 12) * y1 + (7.0 / 24) * y2 - (1.0 / 24) * (ym2 + ym1 + y3)
        let c4 = 0.25 * y0 - (1.0 / 6) * ym1py1 + ym2py2
        let c5 = (1.0 / 120) * (y3 - ym2) + (1.0 / 24) * (ym1 - y2) + (1.0 / 12) * (y1 - y0)
        return ((((c5 * x + c4) * x + c3) * x + c2) * x + c1) * x + y0
    }
}
