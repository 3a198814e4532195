#!/bin/sh
# A compiler launcher that leaves a mark, to show that it ran after
# cudagraph-tidy's: one line per compile in chained.log of the build tree.
echo "$@" >> chained.log
exec "$@"
