"""The raw file-write rate of a batch's bytes: WORKERS processes write COUNT copies of one file, each to a
temporary name, then rename it into place, as PassMint does per pass (no fsync, as `batch` does not).
Usage: raw_write.py FILE OUTDIR COUNT WORKERS   prints "<files> <seconds>"."""
import os
import sys
import time
from multiprocessing import Process

source, out, count, workers = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(source, "rb").read()


def write(worker):
    for i in range(worker, count, workers):
        final = f"{out}/f{i:07d}.pkpass"
        temporary = f"{final}.tmp-{worker}"
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.close(fd)
        os.rename(temporary, final)


os.makedirs(out, exist_ok=True)
start = time.monotonic()
processes = [Process(target=write, args=(w,)) for w in range(workers)]
for p in processes:
    p.start()
for p in processes:
    p.join()
print(count, f"{time.monotonic() - start:.3f}")
