// Umbrella header of the oinfer public API.
#pragma once

#include "oinfer/error.h"
#include "oinfer/graph.h"
#include "oinfer/session.h"
#include "oinfer/tensor.h"
#include "oinfer/tensor_io.h"
#include "oinfer/value.h"
#include "oinfer/version.h"
