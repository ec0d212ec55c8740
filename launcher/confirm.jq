# The confirmation of `gittrace --confirm` (docs/report.md#verdict): input is
# gittrace-report's JSON of the traced run, $ab[0] gittrace-ab's JSON of the
# remedies measured against the command as given. Adds "confirmation": each
# remedy's measured effect (wall time ratio to the command as given, its 95%
# CI, the saving 1 - ratio) beside its prediction, and the class the
# measurements make: of the remedies that saved at least the verdict's
# class_min (10%) with an interval all below 1, the one that saved most;
# "neither" when every interval rules out a saving of class_min (1 - ci_low
# below it: a point below 5% whose interval reaches 25% proves nothing);
# else "unclear" (the gray zone, or noise too wide to tell).

def prediction($remedy): .verdict.predictions[] | select(.remedy == $remedy);

. as $report
| .verdict.class_min as $min
| ($ab[0].baseline) as $baseline
| [ ($ab[0].variants // [])[]
    | select(.name != $baseline and .wall_ratio != null)
    | (if .name == "defaults" then "default-windows" else "allocator" end) as $predicted
    | ($report | prediction($predicted)) as $p
    | { remedy: (if .name == "defaults" then "default-windows" else .name end),
        class: (if .name == "defaults" then "window-bound" else "allocator-bound" end),
        ratio: .wall_ratio.geomean,
        ci_low: .wall_ratio.ci_low,
        ci_high: .wall_ratio.ci_high,
        gain: (1 - .wall_ratio.geomean),
        predicted_gain: $p.gain,
        predicted_low: $p.low,
        predicted_high: $p.high,
        conclusion: .conclusion } ] as $effects
| ([ $effects[] | select(.gain >= $min and .ci_high < 1) ] | max_by(.gain)) as $best
| .confirmation = {
    rounds: $ab[0].rounds,
    seed: $ab[0].seed,
    predicted_class: .verdict.class,
    class: (if $best != null then $best.class
            elif all($effects[]; 1 - .ci_low < $min) then "neither"
            else "unclear" end),
    effects: $effects }
