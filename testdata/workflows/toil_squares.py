"""A Toil workflow run through lsfc: a root job, three children that each
return the square of their number, and a follow-on that adds them up.
Usage: python3 toil_squares.py JOBSTORE; prints "RESULT 5"."""
import sys

from toil.common import Toil
from toil.job import Job


def square(job, i):
    return i * i


def total(job, values):
    return sum(values)


def root(job):
    kids = [job.addChildJobFn(square, i, memory="100M", cores=1, disk="10M") for i in range(3)]
    return job.addFollowOnJobFn(total, [k.rv() for k in kids], memory="100M", cores=1, disk="10M").rv()


if __name__ == "__main__":
    options = Job.Runner.getDefaultOptions(sys.argv[1])
    options.batchSystem = "lsf"
    options.statePollingWait = 1
    options.clean = "always"
    options.logLevel = "INFO"
    with Toil(options) as workflow:
        print("RESULT", workflow.start(Job.wrapJobFn(root, memory="100M", cores=1, disk="10M")))
