# a filter read with -f
.a as $x
| [$x, $x + 1]
