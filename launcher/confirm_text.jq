# The text of `gittrace --confirm`'s confirmation (input: confirm.jq's output).
def pct: (. * 1000 | round / 10 | tostring) + "%";
# How the rounds ended, when gittrace ab added them until a precision.
def stop($c):
  if $c.precision == null then ""
  elif $c.stopped == "precise" then " (until every interval was within \($c.precision | pct) either side)"
  elif $c.stopped == "max_seconds" then " (the intervals were not yet within \($c.precision | pct) either side when the time allowed ran out)"
  else " (the intervals were not yet within \($c.precision | pct) either side after the most rounds allowed)" end;
# A saving and its interval from a ratio's: "12.5% (95% CI 9.1% to 15.8%)".
def saved($ratio; $low; $high):
  if $ratio == null then "not measured"
  elif $low == null or $high == null then "\(1 - $ratio | pct) (one round: no interval)"
  else "\(1 - $ratio | pct) (95% CI \(1 - $high | pct) to \(1 - $low | pct))" end;

"",
"CONFIRMED: \(.confirmation.class) (predicted: \(.confirmation.predicted_class)); gittrace ab, \(.confirmation.rounds // 0) paired rounds in random order against the command as given\(stop(.confirmation))",
(.confirmation.effects[]
 | "  \(.remedy): saved \(saved(.ratio; .ci_low; .ci_high)) of wall time, \(saved(.cpu_ratio; .cpu_ci_low; .cpu_ci_high)) of CPU time; predicted \(.predicted_gain | pct) (\(.predicted_low | pct) to \(.predicted_high | pct)): \(.conclusion)")
,
(select(.confirmation.class == "unclear")
 | "  unclear: a class needs a remedy whose saving's intervals in wall and CPU time both lie at or above \(.verdict.class_min | pct), and neither needs every interval below it; more rounds narrow the intervals (gittrace --confirm --rounds=N)")
