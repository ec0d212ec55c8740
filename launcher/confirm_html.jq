# The HTML section of `gittrace --confirm --html` (input: confirm.jq's
# output), put after the page's verdict.
def pct: (. * 1000 | round / 10 | tostring) + "%";
# A saving's interval from a ratio's: "9.1% to 15.8%", or "none" (one round).
def interval($low; $high): if $low == null or $high == null then "none"
  else "\(1 - $high | pct) to \(1 - $low | pct)" end;
def saving($ratio): if $ratio == null then "not measured" else 1 - $ratio | pct end;

"<section class=\"card\" id=\"gt-confirmation\"><h2>Confirmed: \(.confirmation.class | @html)</h2>",
"<p class=\"help\">Measured by <code>gittrace --confirm</code>: \(.confirmation.rounds // 0) paired rounds in random order (gittrace ab\(if .confirmation.precision == null then "" else "; more rounds until every interval was within \(.confirmation.precision | pct) either side: \(if .confirmation.stopped == "precise" then "reached" else "not reached" end)" end)) against the command as given, in wall and in CPU time. Predicted: \(.confirmation.predicted_class | @html).</p>",
"<table><thead><tr><th>remedy</th><th>saved, wall time</th><th>95% CI</th><th>saved, CPU time</th><th>95% CI</th><th>predicted saving</th><th>predicted interval</th></tr></thead><tbody>",
(.confirmation.effects[]
 | "<tr><td>\(.remedy | @html)</td><td>\(saving(.ratio))</td><td>\(interval(.ci_low; .ci_high))</td><td>\(saving(.cpu_ratio))</td><td>\(interval(.cpu_ci_low; .cpu_ci_high))</td><td>\(.predicted_gain | pct)</td><td>\(.predicted_low | pct) to \(.predicted_high | pct)</td></tr>"),
"</tbody></table></section>"
