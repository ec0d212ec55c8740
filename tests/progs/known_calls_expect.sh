#!/bin/sh
# progs.known_calls_expect: `known_calls --expect`, the expectations the
# capture tests check traces against, is valid JSON that agrees with
# itself: four images. Usage: known_calls_expect.sh KNOWN_CALLS
"$1" --expect | jq -e '.images | length == 4'
