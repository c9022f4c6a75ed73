#!/bin/sh
# A --cluster-status helper: $1 is bsub's first line ("Job <ID> is
# submitted to queue <Q>."); prints success, failed or running.
id=$(echo "$1" | sed -n 's/^Job <\([0-9]*\)> is submitted.*/\1/p')
case $(bjobs -o stat -noheader "$id") in
DONE) echo success ;;
EXIT) echo failed ;;
*) echo running ;;
esac
