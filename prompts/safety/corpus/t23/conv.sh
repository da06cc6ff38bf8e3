#!/bin/bash
# usage: conv.sh prefix outfile
cd /work/main/prompts/safety/corpus/t23/raw
cat $1*.txt | awk '{ph=$1; md=$2; $1=""; $2=""; sub(/^  /,""); p["at"]="atmosphere";p["br"]="breathing";p["se"]="sensory";p["re"]="relaxation";p["rs"]="resolution";m["w"]="waking";m["s"]="sleep"; if(!(ph in p)||!(md in m)){print "BAD: " $0 > "/dev/stderr"; next} print p[ph] "\t" m[md] "\t" $0}' > ../$2
