#!/bin/bash
f=$1
cut -f3 $f | sort | uniq -d
cut -f3 $f | python3 -c "
import sys,re,collections
d=collections.defaultdict(list)
for l in sys.stdin:
    l=l.rstrip('\n'); w=re.findall(r\"[a-z0-9']+\", l.lower())[:3]
    d[' '.join(w)].append(l)
for k,v in d.items():
    if len(v)>1:
        print('##',k)
        for x in v: print('   ',x)
"
