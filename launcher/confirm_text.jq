# The text of `gittrace --confirm`'s confirmation (input: confirm.jq's output).
def pct: (. * 1000 | round / 10 | tostring) + "%";

"",
"CONFIRMED: \(.confirmation.class) (predicted: \(.confirmation.predicted_class)); gittrace ab, \(.confirmation.rounds // 0) paired rounds in random order, wall time against the command as given",
(.confirmation.effects[]
 | "  \(.remedy): measured \(.gain | pct) saved (95% CI \(1 - .ci_high | pct) to \(1 - .ci_low | pct)), predicted \(.predicted_gain | pct) (\(.predicted_low | pct) to \(.predicted_high | pct)): \(.conclusion)")
,
(select(.confirmation.class == "unclear")
 | "  unclear: no remedy saved 10% with an interval all below the command as given, and not every interval rules 10% out; more rounds narrow the intervals (gittrace --confirm --rounds=N)")
