# The confirmation of `gittrace --confirm` (docs/report.md#verdict): input is
# gittrace-report's JSON of the traced run, $ab[0] gittrace-ab's JSON of the
# remedies measured against the command as given. Adds "confirmation": each
# remedy's measured effect beside its prediction, and the class the
# measurements make.
#
# An effect is measured twice: in wall time (ratio to the command as given,
# its 95% CI, the saving 1 - ratio) and in CPU time (cpu_*), which waits for
# a busy machine's CPUs do not stretch. A class is proved as the verdict
# claims one, at a saving of class_min (10%) or more: by a remedy whose
# intervals in both times lie at or above class_min; of those, the one that
# saved most. A saving of 26% with an interval of 11-39% in wall time is no
# proof when CPU time says 8% (a loaded machine). "neither" is the mirror:
# every remedy's intervals in both times lie below class_min. Otherwise
# "unclear": the gray zone, or noise too wide to tell.

def prediction($remedy): .verdict.predictions[] | select(.remedy == $remedy);

# The saving's interval [low, high] of a ratio and its CI; null without one.
def saving: if . == null or .ci_low == null or .ci_high == null then null
    else {low: (1 - .ci_high), high: (1 - .ci_low)} end;

. as $report
| .verdict.class_min as $min
| ($ab[0].baseline) as $baseline
| [ ($ab[0].variants // [])[]
    | select(.name != $baseline and .wall_ratio != null)
    | (if .name == "defaults" then "default-windows" else "allocator" end) as $predicted
    | ($report | prediction($predicted)) as $p
    | (.wall_ratio | saving) as $wall
    | (.cpu_ratio | saving) as $cpu
    | { remedy: (if .name == "defaults" then "default-windows" else .name end),
        class: (if .name == "defaults" then "window-bound" else "allocator-bound" end),
        ratio: .wall_ratio.geomean,
        ci_low: .wall_ratio.ci_low,
        ci_high: .wall_ratio.ci_high,
        gain: (1 - .wall_ratio.geomean),
        cpu_ratio: .cpu_ratio.geomean,
        cpu_ci_low: .cpu_ratio.ci_low,
        cpu_ci_high: .cpu_ratio.ci_high,
        cpu_gain: (if .cpu_ratio.geomean == null then null else 1 - .cpu_ratio.geomean end),
        proves: ($wall != null and $cpu != null and $wall.low >= $min and $cpu.low >= $min),
        rules_out: ($wall != null and $cpu != null and $wall.high < $min and $cpu.high < $min),
        predicted_gain: $p.gain,
        predicted_low: $p.low,
        predicted_high: $p.high,
        conclusion: .conclusion } ] as $effects
| ([ $effects[] | select(.proves) ] | max_by(.gain)) as $best
| .confirmation = {
    rounds: $ab[0].rounds,
    precision: $ab[0].precision,
    stopped: $ab[0].stopped,
    seed: $ab[0].seed,
    predicted_class: .verdict.class,
    class: (if $best != null then $best.class
            elif all($effects[]; .rules_out) then "neither"
            else "unclear" end),
    effects: $effects }
