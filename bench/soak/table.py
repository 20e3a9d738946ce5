"""Prints bench/soak/soak.bench.sh's results (soak.results) as a Markdown table."""
import sys

lines = [line.split() for line in open(sys.argv[1]) if line.strip()]
def values(line):
    return dict(pair.split("=", 1) for pair in line[1:])
samples = [values(line) for line in lines if line[0] == "sample"]
rest = {line[0]: values(line) for line in lines if line[0] != "sample"}
if not samples or not all(key in rest for key in ("probe", "notes", "control", "replugs")):
    sys.exit(f"soak: incomplete results in {sys.argv[1]} (the run failed: see its log)")
def row(name, first, last, peak, verdict):
    print(f"| {name} | {first} | {last} | {peak} | {verdict} |")
print("| measure | minute 0 | end | most | later half |")
print("|---|---:|---:|---:|---|")
# A leak grows without bound: the later half of the run reaching past the most of the
# earlier half (by more than 1 MB of memory, or by any descriptor or thread) is growth;
# the first minutes' growth (allocator pools, caches filling) and threads that come and
# go (the system's dispatch workers) are not.
for key, name in (("rss_kb", "daemon RSS (kB)"), ("fds", "open file descriptors"), ("threads", "threads")):
    series = [int(sample[key]) for sample in samples]
    half = len(series) // 2
    earlier, later = series[:max(half, 1)], series[half:]
    growth = max(later) - max(earlier)
    flat = growth <= (1024 if key == "rss_kb" else 0)
    row(name, series[0], series[-1], max(series), "flat" if flat else f"grew by {growth} in the later half")
probe, notes, control = rest["probe"], rest["notes"], rest["control"]
minutes = int(samples[-1]["minute"])
print(f"| MIDI through the hub | sent {probe['sent']} | received {probe['received']} | p99 {probe['p99_us']} µs, max {probe['max_us']} µs "
      f"| {probe['lost']} lost |")
print(f"| keyboard notes at aseqdump | on {notes['on']} | off {notes['off']} (+ {notes['channel_offs']} all-notes-off) | {rest['replugs']['count']} replugs "
      f"| {notes['hanging']} hanging |")
print(f"| control client | {control['sets']} sets | {control['edits']} graph edits | {control['events']} events "
      f"| {control['refused']} refused |")
print(f"\n{minutes} minutes.")
