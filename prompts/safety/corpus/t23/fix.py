import sys,glob
# usage: fix.py prefix  (reads pairs from stdin: old \n new \n blank)
prefix=sys.argv[1]
blocks=[b for b in sys.stdin.read().split('\n\n') if b.strip()]
pairs=[tuple(b.strip('\n').split('\n')) for b in blocks]
files={f:open(f).read().split('\n') for f in glob.glob(prefix+'*.txt')}
for old,new in pairs:
    hit=0
    for f,lines in files.items():
        for i,l in enumerate(lines):
            if l[5:]==old:
                lines[i]=l[:5]+new; hit+=1
    if hit!=1: print('MISS/MULTI',hit,old)
for f,lines in files.items(): open(f,'w').write('\n'.join(lines))
