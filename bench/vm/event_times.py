"""Shared by the VM benchmarks (bench/vm/*.bench.sh): when a MIDI file's channel events
fall, from `midicsv`'s listing through the file's own tempo map, and how far the times a
run measured stray from them."""
import statistics


def channel_event_seconds(csv_path):
    """The seconds of every channel event in a midicsv listing, in time order."""
    division, tempos, ticks = 480, [], []
    for line in open(csv_path, errors="replace"):
        fields = [f.strip() for f in line.split(",")]
        if len(fields) < 3:
            continue
        if fields[2] == "Header":
            division = int(fields[5])
        elif fields[2] == "Tempo":
            tempos.append((int(fields[1]), int(fields[3])))
        elif fields[2].endswith("_c"):
            ticks.append(int(fields[1]))
    tempos.sort()

    def seconds(tick):
        total, last_tick, tempo = 0.0, 0, 500000
        for at, value in tempos:
            if at > tick:
                break
            total += (at - last_tick) * tempo / 1e6 / division
            last_tick, tempo = at, value
        return total + (tick - last_tick) * tempo / 1e6 / division

    return sorted(seconds(tick) for tick in ticks)


def deviation_row(run, count_name, measured, expected):
    """'RUN COUNT_NAME=N p50_us= p99_us= max_us=': each measured time less its expected one,
    less the median of those (a constant delay is not an error), in microseconds."""
    offsets = [m - e for m, e in zip(measured, expected)]
    median = statistics.median(offsets)
    deviations = sorted(abs(o - median) * 1e6 for o in offsets)
    p = lambda q: deviations[min(len(deviations) - 1, int(q * len(deviations)))]
    return f"{run} {count_name}={len(deviations)} p50_us={p(0.5):.1f} p99_us={p(0.99):.1f} max_us={deviations[-1]:.1f}"
