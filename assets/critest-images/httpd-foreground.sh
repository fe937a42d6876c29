#!/bin/sh
# Stand-in for the httpd:2.4 image's entrypoint (busybox httpd on port 80). It logs Apache's
# start-up line naming its command line, which the CRI validation suite looks for in the log.
echo "[mpm_event:notice] [pid $$:tid $$] AH00489: Apache/2.4.39 (Unix) configured -- resuming normal operations" >&2
echo "[core:notice] [pid $$:tid $$] AH00094: Command line: 'httpd -D FOREGROUND'" >&2
httpd -f -p 80 -h /usr/local/apache2/htdocs &
# As PID 1 a shell gets no default action for TERM: stop the server and exit.
trap 'kill $!; exit 0' TERM INT
wait $!
