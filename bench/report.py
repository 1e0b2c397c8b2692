# SPDX-License-Identifier: MIT
"""Turns the measurements of bench/run into its tables and target verdicts.

`runs` of one data set is a list (one entry per run) of {contender key:
measurement}; in each run every contender is paired with a measurement of its
table's json() taken right before or right after it (key + PAIRED), its ratio
in that run is its time over that json() time, and the table shows the median
of those ratios beside the median and min-max of the times.
"""

import statistics

from contenders import COLUMN, PEER_JOBS, is_wirejson

MB = 1e6
PAIRED = "@json"


def summarize(contenders, data):
    """{key: summary} for one data set; a summary has status ok|missing|error."""
    runs, nbytes = data["runs"], data["bytes"]
    out = {}
    for c in contenders:
        if c.key in data["skipped"]:
            out[c.key] = {"status": data["skipped"][c.key]}
            continue
        ms = [r[c.key] for r in runs if c.key in r]
        if c.role == "baseline":  # its paired measurements count too
            ms += [m for r in runs for k, m in r.items()
                   if k.endswith(PAIRED) and k.startswith(c.table + ":")]
        secs = [m["seconds"] for m in ms if "seconds" in m]
        if not secs:
            err = next((m["error"] for m in ms if "error" in m), "no run")
            out[c.key] = {"status": "error: " + err}
            continue
        pair = c.key if c.role == "baseline" else c.key + PAIRED
        ratios = [r[c.key]["seconds"] / r[pair]["seconds"]
                  for r in runs if "seconds" in r.get(c.key, {})
                  and "seconds" in r.get(pair, {})]
        rss = [m["rss_kb"] for m in ms if m.get("rss_kb")]
        med = statistics.median(secs)
        out[c.key] = {
            "status": "ok", "median": med, "min": min(secs), "max": max(secs),
            "ratio": statistics.median(ratios) if ratios else None,
            "mbps": nbytes[c.table] / med / MB,
            "rss_mb": max(rss) / 1024 if rss else None,
            "n": len(secs),
        }
    return out


def fmt(x, spec, missing="–"):
    return missing if x is None else format(x, spec)


def main_table(contenders, data, summary):
    lines = ["| input | contender | median s | min–max s | MB/s | × json() | peak RSS MB |",
             "|---|---|---:|---:|---:|---:|---:|"]
    shown = set()
    for c in contenders:
        s = summary[c.key]
        label = ""
        if c.table not in shown:
            shown.add(c.table)
            label = "%s (%s, %d rows, %.1f MB)" % (
                c.table, COLUMN[c.table], data["rows"][c.table], data["bytes"][c.table] / MB)
        if s["status"] != "ok":
            lines.append("| %s | %s | %s | | | | |" % (label, c.name, s["status"]))
            continue
        lines.append("| %s | %s | %.3f | %.3f–%.3f | %s | %s | %s |" % (
            label, c.name, s["median"], s["min"], s["max"], fmt(s["mbps"], ".0f"),
            fmt(s["ratio"], ".2f"), fmt(s["rss_mb"], ".0f")))
    return lines


def ratio_cell(s):
    return fmt(s.get("ratio"), ".2f") if s["status"] == "ok" else s["status"].split(":")[0]


def growth(a, b):
    if a["status"] == "ok" and b["status"] == "ok":
        return b["median"] / a["median"]
    return None


def scaling_table(contenders, small, big, summ_small, summ_big):
    """Ratio to json() at both sizes, and each time's growth beside json()'s."""
    base = {c.table: c.key for c in contenders if c.role == "baseline"}
    lines = ["| input | contender | × json() at %s | × json() at %s | time %s / %s "
             "| json()'s time %s / %s |" % (small, big, big, small, big, small),
             "|---|---|---:|---:|---:|---:|"]
    for c in contenders:
        if c.kind == "sha":
            continue
        a, b = summ_small[c.key], summ_big[c.key]
        g = growth(a, b)
        gj = growth(summ_small[base[c.table]], summ_big[base[c.table]])
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            c.table, c.name, ratio_cell(a), ratio_cell(b), fmt(g, ".2f"), fmt(gj, ".2f")))
    return lines


def relative_growth(a, b):
    """How much more a contender's time grows than json()'s: the ratio to
    json() at the big size over the ratio at the small size (both paired)."""
    if a["status"] == "ok" and b["status"] == "ok" and a["ratio"] and b["ratio"]:
        return b["ratio"] / a["ratio"]
    return None


def memory_factor(s, base_kb, nbytes):
    """Peak RSS beyond the idle process (SELECT 1), as a multiple of the input."""
    if s["status"] != "ok" or s.get("rss_mb") is None or not base_kb:
        return None
    return (s["rss_mb"] * 1024 - base_kb) * 1024 / nbytes


def single_table(contenders, small, big, summ_small, summ_big, data_big):
    base = {c.table: c.key for c in contenders if c.role == "baseline"}
    lines = ["| contender | s at %s | s at %s | growth | json()'s growth | growth ÷ json()'s "
             "| peak RSS MB at %s | (peak − idle) ÷ body | (peak − scan) ÷ body |"
             % (small, big, big),
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    scan = summ_big[next(c.key for c in contenders
                         if c.table == "bodies" and c.role == "floor")]
    scan_kb = scan["rss_mb"] * 1024 if scan["status"] == "ok" and scan["rss_mb"] else None
    for c in contenders:
        if c.table != "bodies" or c.kind == "sha":
            continue
        a, b = summ_small[c.key], summ_big[c.key]
        if a["status"] != "ok" or b["status"] != "ok":
            lines.append("| %s | %s | %s | | | | | | |" % (
                c.name, a["status"].split(":")[0], b["status"].split(":")[0]))
            continue
        g = growth(a, b)
        gj = growth(summ_small[base["bodies"]], summ_big[base["bodies"]])
        nbytes = data_big["bytes"]["bodies"]
        sql = c.kind == "sql"
        mem = memory_factor(b, data_big["idle_rss_kb"], nbytes) if sql else None
        beyond = memory_factor(b, scan_kb, nbytes) if sql else None
        lines.append("| %s | %.3f | %.3f | %.2f | %s | %s | %s | %s | %s |" % (
            c.name, a["median"], b["median"], g, fmt(gj, ".2f"),
            fmt(relative_growth(a, b), ".2f"), fmt(b["rss_mb"], ".0f"), fmt(mem, ".2f"),
            fmt(beyond, ".2f")))
    return lines


def fastest_peer(contenders, summary, job):
    best = None
    for c in contenders:
        s = summary[c.key]
        if c.job == job and c.kind == "proc" and not is_wirejson(c) and s["status"] == "ok":
            if best is None or s["ratio"] < best[1]:
                best = (c.name, s["ratio"])
    return best


def verdict(ok):
    return "met" if ok else "NOT met"


def targets(contenders, summary, single_small, single_big, data_big, sizes):
    """[(target, measured, verdict)] for the issue's targets."""
    by_name = {c.name: c for c in contenders}
    rows = []

    def ratio_target(name, limit):
        s = summary[by_name[name].key]
        if s["status"] != "ok":
            return ("%s ≤ %.1f× json()" % (name, limit), s["status"], "missing")
        return ("%s ≤ %.1f× json()" % (name, limit), "%.2f×" % s["ratio"],
                verdict(s["ratio"] <= limit))

    rows.append(ratio_target("canonical_json(body)", 1.0))
    rows.append(ratio_target("wire_json(body)", 1.0))
    rows.append(ratio_target("data_digest(body)", 1.3))
    base = by_name["json(body)"].key
    gj = growth(single_small[base], single_big[base])
    for name in ("wire_json(body)", "wire_json_sorted(body)", "canonical_json(body)",
                 "data_digest(body)"):
        key = by_name[name].key
        label = "%s one-body growth %s/%s ≤ 1.2× json()'s" % (name, sizes[1], sizes[0])
        g = growth(single_small[key], single_big[key])
        rel = relative_growth(single_small[key], single_big[key])
        if g is None or gj is None or rel is None:
            rows.append((label, "–", "missing"))
        else:
            rows.append((label, "%.2f× json()'s (time ×%.2f, json() ×%.2f)" % (rel, g, gj),
                         verdict(rel <= 1.2)))
    for name in ("wire_json(body)", "canonical_json(body)", "data_digest(body)"):
        label = "%s peak memory for one body ≤ 3× its size + idle process" % name
        f = memory_factor(single_big[by_name[name].key], data_big["idle_rss_kb"],
                          data_big["bytes"]["bodies"]) if single_big else None
        rows.append((label, "–", "missing") if f is None else
                    (label, "%.2f× body" % f, verdict(f <= 3.0)))
    for c in contenders:
        if c.kind != "sql" or not is_wirejson(c) or c.job not in PEER_JOBS:
            continue
        label = "%s ≥ 5× the fastest peer's throughput" % c.name
        s = summary[c.key]
        peer = fastest_peer(contenders, summary, PEER_JOBS[c.job])
        if s["status"] != "ok" or peer is None:
            rows.append((label, "–", "missing"))
            continue
        speedup = peer[1] / s["ratio"]
        rows.append((label, "%.1f× %s" % (speedup, peer[0]), verdict(speedup >= 5.0)))
    rows += informational(contenders, summary)
    return rows


def informational(contenders, summary):
    """docs/contract.md §10's other comparisons, reported without a limit."""
    by_name = {c.name: summary[c.key] for c in contenders}
    rows = []
    wq, jq = by_name["wirejq data_digest"], by_name["jq -c ."]
    if wq["status"] == "ok" and jq["status"] == "ok":
        rows.append(("wirejq data_digest against jq -c . (no limit set)",
                     "%.2f× jq -c .'s time" % (wq["ratio"] / jq["ratio"]), "info"))
    dd, sha = by_name["data_digest(body)"], by_name["openssl sha256 (speed)"]
    if dd["status"] == "ok" and sha["status"] == "ok":
        rows.append(("data_digest against raw SHA-256 of the same bytes (no limit set)",
                     "%.0f MB/s against %.0f MB/s" % (dd["mbps"], sha["mbps"]), "info"))
    return rows


def targets_table(rows):
    lines = ["| target | measured | verdict |", "|---|---|---|"]
    lines += ["| %s | %s | %s |" % r for r in rows]
    return lines


def agreement_lines(rows, where):
    if not rows:
        return ["Not checked (the extension or Node is missing)."]
    out = []
    for fn, same, total, first in rows:
        line = "- %s on %s: %d of %d rows give Node's digest" % (fn, where, same, total)
        if first is not None:
            line += " — first difference at row %s" % first
        out.append(line)
    return out
