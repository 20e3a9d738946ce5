internal import CALSA

extension PCMDevice {
    /// Agrees on hardware and software parameters with an opened PCM: interleaved
    /// access, the first offered format of `configuration.formats`, exact channels,
    /// and the device's nearest rate, period and buffer sizes. Playback starts once
    /// the buffer is full, so the first periods are never an underrun; capture starts
    /// with the first read.
    /// - Thread: control
    static func negotiate(
        _ pcm: OpaquePointer, name: String, configuration: PCMConfiguration, capture: Bool = false
    ) throws(PCMError) -> PCMSettings {
        var hardware: OpaquePointer?
        let allocated = snd_pcm_hw_params_malloc(&hardware)
        guard allocated >= 0, let hardware else {
            throw .alsa(ALSAError(function: "snd_pcm_hw_params_malloc", code: allocated))
        }
        defer { snd_pcm_hw_params_free(hardware) }

        func require(_ result: Int32, _ function: String, setting: String) throws(PCMError) {
            if result < 0 {
                throw .unsupportedSetting(
                    name: name, setting: setting, cause: ALSAError(function: function, code: result))
            }
        }

        let any = snd_pcm_hw_params_any(pcm, hardware)
        guard any >= 0 else { throw .alsa(ALSAError(function: "snd_pcm_hw_params_any", code: any)) }
        try require(
            snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED),
            "snd_pcm_hw_params_set_access", setting: "interleaved writes")

        guard let format = configuration.formats.first(where: {
            snd_pcm_hw_params_test_format(pcm, hardware, $0.alsaFormat) == 0
        }) else {
            throw .noSupportedFormat(name: name, tried: configuration.formats)
        }
        try require(
            snd_pcm_hw_params_set_format(pcm, hardware, format.alsaFormat),
            "snd_pcm_hw_params_set_format", setting: "format \(format)")
        try require(
            snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(configuration.channels)),
            "snd_pcm_hw_params_set_channels", setting: "\(configuration.channels) channels")

        var rate = UInt32(configuration.sampleRate)
        try require(
            snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, nil),
            "snd_pcm_hw_params_set_rate_near", setting: "\(configuration.sampleRate) Hz")
        var period = snd_pcm_uframes_t(configuration.periodFrames)
        try require(
            snd_pcm_hw_params_set_period_size_near(pcm, hardware, &period, nil),
            "snd_pcm_hw_params_set_period_size_near", setting: "a period of \(configuration.periodFrames) frames")
        var buffer = snd_pcm_uframes_t(configuration.requestedBufferFrames)
        try require(
            snd_pcm_hw_params_set_buffer_size_near(pcm, hardware, &buffer),
            "snd_pcm_hw_params_set_buffer_size_near",
            setting: "a buffer of \(configuration.requestedBufferFrames) frames")
        try require(
            snd_pcm_hw_params(pcm, hardware), "snd_pcm_hw_params",
            setting: "\(format), \(rate) Hz, period \(period), buffer \(buffer) frames")

        // Read back what was installed: the "near" values can move once more.
        var direction: Int32 = 0
        _ = snd_pcm_hw_params_get_rate(hardware, &rate, &direction)
        _ = snd_pcm_hw_params_get_period_size(hardware, &period, &direction)
        _ = snd_pcm_hw_params_get_buffer_size(hardware, &buffer)

        try configureSoftware(pcm, startThreshold: capture ? 1 : buffer, availableMinimum: period)
        return PCMSettings(
            deviceName: name, format: format, sampleRate: Int(rate), channels: configuration.channels,
            periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    private static func configureSoftware(
        _ pcm: OpaquePointer, startThreshold: snd_pcm_uframes_t, availableMinimum: snd_pcm_uframes_t
    ) throws(PCMError) {
        var software: OpaquePointer?
        do throws(ALSAError) {
            try check("snd_pcm_sw_params_malloc", snd_pcm_sw_params_malloc(&software))
            defer { snd_pcm_sw_params_free(software) }
            try check("snd_pcm_sw_params_current", snd_pcm_sw_params_current(pcm, software))
            try check(
                "snd_pcm_sw_params_set_start_threshold",
                snd_pcm_sw_params_set_start_threshold(pcm, software, startThreshold))
            try check(
                "snd_pcm_sw_params_set_avail_min", snd_pcm_sw_params_set_avail_min(pcm, software, availableMinimum))
            try check("snd_pcm_sw_params", snd_pcm_sw_params(pcm, software))
        } catch {
            throw .alsa(error)
        }
    }
}

extension PCMSampleFormat {
    /// The alsa-lib constant of this format.
    var alsaFormat: snd_pcm_format_t {
        switch self {
        case .float32LE: SND_PCM_FORMAT_FLOAT_LE
        case .signed32LE: SND_PCM_FORMAT_S32_LE
        case .signed24Packed3LE: SND_PCM_FORMAT_S24_3LE
        case .signed16LE: SND_PCM_FORMAT_S16_LE
        }
    }
}
