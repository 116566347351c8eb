// The intra-op thread pool is public (a host application may share one pool
// between sessions, SessionOptions::threadPool); kernels include it from here.
#pragma once

#include "oinfer/thread_pool.h"
