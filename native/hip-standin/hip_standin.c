/*
 * Dictum's HIP stand-in: libamdhip64.so.6 implemented over the CUDA driver API.
 *
 * TEST INFRASTRUCTURE ONLY — never shipped. No AMD GPU is available to the project, so this
 * library lets Dictum's real HIP binding (JNA, the same code that loads amdhip64_6.dll on a
 * Radeon) run end to end on an NVIDIA machine: it is compiled against the real HIP headers
 * (Debian's libamdhip64-dev, ROCm 5.2), so every function has HIP's exact C signature, and it
 * exports each function Dictum binds (docs/architecture.md lists them).
 *
 * Behaviour, as GPU-PLAN.md specifies:
 *  - one HIP device per CUDA device, reporting gcnArchName "gfx1010:xnack-", warp size 32 and
 *    compute capability 10.1 (what a gfx1010 reports), so Dictum takes its gfx1010 path;
 *  - hipModuleLoadData receives the gfx1010 code object Dictum picked: the stand-in reads the
 *    kernel names from its ELF symbol table and loads the PTX module from the directory
 *    DICTUM_HIP_STANDIN_PTX that defines all of them (cuModuleLoadData). A cubin or PTX image is
 *    passed through unchanged;
 *  - everything else maps one to one onto the driver API, on the stream Dictum passes;
 *  - the first call of each HIP function is logged ("dictum-hip-standin: first call hipX") to
 *    stderr or to the file DICTUM_HIP_STANDIN_LOG as "hipX first call (dictum-hip-standin)", so
 *    a run shows which HIP calls executed; other messages start with "dictum-hip-standin:".
 *
 * ROCm versions: Dictum targets ROCm 6.2. The 5.2 headers compiled against here agree with 6.2
 * on every enum value used (hipError_t, hipDeviceAttribute_t for the attributes present in both,
 * hipFunction_attribute — checked against rocm-6.2.2's hip_runtime_api.h); where 6.2 differs, the
 * stand-in follows 6.2: hipDeviceProp_tR0600 (hip_r0600.h), hipGetDevicePropertiesR0600, the
 * 6.2-only attribute hipDeviceAttributeWallClockRate (10017), and the reported versions.
 */
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>

#include <dirent.h>
#include <stddef.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_driver_subset.h"
#include "hip_r0600.h"

#define EXPORT __attribute__((visibility("default")))

/* HIP_VERSION of ROCm 6.2.4 (major * 10^7 + minor * 10^5 + patch): what 6.2's runtime reports. */
#define STANDIN_HIP_VERSION 60241134
/* hipDeviceAttributeWallClockRate: new in 6.x (10017 in 6.2), absent from the 5.2 headers. */
#define STANDIN_ATTR_WALL_CLOCK_RATE 10017
#define STANDIN_ARCH "gfx1010:xnack-"
#define STANDIN_MAX_DEVICES 64

/* ---- first-call log ---------------------------------------------------------------------- */

static pthread_once_t log_once = PTHREAD_ONCE_INIT;
static FILE* log_file;

static void log_open(void) {
    const char* path = getenv("DICTUM_HIP_STANDIN_LOG");
    log_file = (path && *path) ? fopen(path, "a") : NULL;
    if (!log_file) {
        log_file = stderr;
    }
}

static void standin_log(const char* fmt, const char* arg) {
    pthread_once(&log_once, log_open);
    fprintf(log_file, "dictum-hip-standin: ");
    fprintf(log_file, fmt, arg);
    fputc('\n', log_file);
    fflush(log_file);
}

/* One line per HIP function, the first time it is called, starting with the bare name so that
 * the list of executed calls is one grep away. */
static void first_call_log(const char* name) {
    pthread_once(&log_once, log_open);
    fprintf(log_file, "%s first call (dictum-hip-standin)\n", name);
    fflush(log_file);
}

#define FIRST_CALL(name)                                  \
    do {                                                  \
        static atomic_int seen_;                          \
        if (!atomic_exchange(&seen_, 1)) {                \
            first_call_log(name);                         \
        }                                                 \
    } while (0)

/* ---- errors ------------------------------------------------------------------------------ */

static __thread hipError_t last_error = hipSuccess;

static hipError_t record(hipError_t e) {
    if (e != hipSuccess) {
        last_error = e;
    }
    return e;
}

/* CUDA and HIP share the numbers of these codes; anything else becomes hipErrorUnknown. */
static hipError_t from_cu(CUresult r) {
    switch (r) {
    case 0: return record(hipSuccess);
    case 1: return record(hipErrorInvalidValue);
    case 2: return record(hipErrorOutOfMemory);
    case 3: return record(hipErrorNotInitialized);
    case 4: return record(hipErrorDeinitialized);
    case 100: return record(hipErrorNoDevice);
    case 101: return record(hipErrorInvalidDevice);
    case 200: return record(hipErrorInvalidImage);
    case 201: return record(hipErrorInvalidContext);
    case 209: return record(hipErrorNoBinaryForGpu);
    case 218: return record(hipErrorInvalidKernelFile);
    case 400: return record(hipErrorInvalidHandle);
    case 500: return record(hipErrorNotFound);
    case 600: return record(hipErrorNotReady);
    case 700: return record(hipErrorIllegalAddress);
    case 701: return record(hipErrorLaunchOutOfResources);
    case 702: return record(hipErrorLaunchTimeOut);
    case 719: return record(hipErrorLaunchFailure);
    default: return record(hipErrorUnknown);
    }
}

#define CU(call) from_cu(call)

/* ---- initialisation and the current device's primary context --------------------------- */

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static CUresult init_result;
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext primary[STANDIN_MAX_DEVICES];
static __thread int current_device;
static __thread CUcontext bound;

static void init_driver(void) {
    init_result = cuInit(0);
}

static hipError_t ensure_init(void) {
    pthread_once(&init_once, init_driver);
    return init_result == CUDA_SUCCESS ? hipSuccess : from_cu(init_result);
}

static int device_count(void) {
    int n = 0;
    if (ensure_init() != hipSuccess || cuDeviceGetCount(&n) != CUDA_SUCCESS) {
        return 0;
    }
    return n < STANDIN_MAX_DEVICES ? n : STANDIN_MAX_DEVICES;
}

static hipError_t cu_device(int ordinal, CUdevice* dev) {
    hipError_t e = ensure_init();
    if (e != hipSuccess) {
        return e;
    }
    if (ordinal < 0 || ordinal >= device_count()) {
        return record(hipErrorInvalidDevice);
    }
    return CU(cuDeviceGet(dev, ordinal));
}

/* The common start of the per-device queries: a null out-pointer is hipErrorInvalidValue, then
 * the CUDA device of the HIP ordinal. */
static hipError_t query_device(const void* out, int ordinal, CUdevice* dev) {
    return out ? cu_device(ordinal, dev) : record(hipErrorInvalidValue);
}

/* HIP has an implicit context per device; the stand-in binds the device's primary context to
 * the calling thread before any call that needs one. */
static hipError_t bind_context(void) {
    CUdevice dev;
    hipError_t e = cu_device(current_device, &dev);
    if (e != hipSuccess) {
        return e;
    }
    pthread_mutex_lock(&ctx_lock);
    CUresult r = CUDA_SUCCESS;
    if (!primary[current_device]) {
        r = cuDevicePrimaryCtxRetain(&primary[current_device], dev);
    }
    CUcontext ctx = primary[current_device];
    pthread_mutex_unlock(&ctx_lock);
    if (r != CUDA_SUCCESS) {
        return from_cu(r);
    }
    if (bound != ctx) {
        r = cuCtxSetCurrent(ctx);
        if (r != CUDA_SUCCESS) {
            return from_cu(r);
        }
        bound = ctx;
    }
    return hipSuccess;
}

#define BIND()                           \
    do {                                 \
        hipError_t b_ = bind_context();  \
        if (b_ != hipSuccess) {          \
            return b_;                   \
        }                                \
    } while (0)

/* ---- versions, devices ------------------------------------------------------------------ */

EXPORT hipError_t hipInit(unsigned int flags) {
    FIRST_CALL("hipInit");
    if (flags != 0) {
        return record(hipErrorInvalidValue);
    }
    return ensure_init();
}

/* Stores one int result; a null out-pointer is hipErrorInvalidValue, as in HIP. */
static hipError_t put_int(int* out, int value) {
    if (!out) {
        return record(hipErrorInvalidValue);
    }
    *out = value;
    return hipSuccess;
}

EXPORT hipError_t hipDriverGetVersion(int* driverVersion) {
    FIRST_CALL("hipDriverGetVersion");
    return put_int(driverVersion, STANDIN_HIP_VERSION);
}

EXPORT hipError_t hipRuntimeGetVersion(int* runtimeVersion) {
    FIRST_CALL("hipRuntimeGetVersion");
    return put_int(runtimeVersion, STANDIN_HIP_VERSION);
}

EXPORT hipError_t hipGetDeviceCount(int* count) {
    FIRST_CALL("hipGetDeviceCount");
    if (!count) {
        return record(hipErrorInvalidValue);
    }
    *count = 0;
    hipError_t e = ensure_init(); /* a driver that fails to start says why (CUDA_ERROR_NO_DEVICE too) */
    if (e != hipSuccess) {
        return e;
    }
    *count = device_count();
    return *count > 0 ? hipSuccess : record(hipErrorNoDevice);
}

EXPORT hipError_t hipSetDevice(int deviceId) {
    FIRST_CALL("hipSetDevice");
    CUdevice dev;
    hipError_t e = cu_device(deviceId, &dev);
    if (e == hipSuccess) {
        current_device = deviceId;
    }
    return e;
}

EXPORT hipError_t hipGetDevice(int* deviceId) {
    FIRST_CALL("hipGetDevice");
    return put_int(deviceId, current_device);
}

/* The CUDA device's name marked as the stand-in's, so no report mistakes it for a Radeon. */
static hipError_t device_name(char* name, int len, hipDevice_t device) {
    CUdevice dev;
    char buf[256];
    hipError_t e = query_device(len > 0 ? name : NULL, device, &dev);
    if (e == hipSuccess) {
        e = CU(cuDeviceGetName(buf, (int) sizeof buf, dev));
    }
    if (e == hipSuccess) {
        snprintf(name, (size_t) len, "%s (HIP stand-in)", buf);
    }
    return e;
}

EXPORT hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
    FIRST_CALL("hipDeviceGetName");
    return device_name(name, len, device);
}

static int cu_attr(CUdevice dev, int attr) {
    int v = 0;
    return cuDeviceGetAttribute(&v, attr, dev) == CUDA_SUCCESS ? v : 0;
}

/* hipDeviceAttribute_t (ROCm 6.2 numbering) -> the value a gfx1010 under the stand-in reports. */
static hipError_t attribute(int* pi, int attr, CUdevice dev) {
    static const struct { int hip; int cu; } same[] = {
        {hipDeviceAttributeEccEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED},
        {hipDeviceAttributeAsyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT},
        {hipDeviceAttributeCanMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY},
        {hipDeviceAttributeClockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
        {hipDeviceAttributeComputeMode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE},
        {hipDeviceAttributeComputePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED},
        {hipDeviceAttributeConcurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS},
        {hipDeviceAttributeConcurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS},
        {hipDeviceAttributeCooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH},
        {hipDeviceAttributeDeviceOverlap, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP},
        {hipDeviceAttributeGlobalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED},
        {hipDeviceAttributeHostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED},
        {hipDeviceAttributeIntegrated, CU_DEVICE_ATTRIBUTE_INTEGRATED},
        {hipDeviceAttributeIsMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD},
        {hipDeviceAttributeKernelExecTimeout, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT},
        {hipDeviceAttributeL2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
        {hipDeviceAttributeLocalL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED},
        {hipDeviceAttributeManagedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY},
        {hipDeviceAttributeMaxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
        {hipDeviceAttributeMaxBlockDimX, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
        {hipDeviceAttributeMaxBlockDimY, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
        {hipDeviceAttributeMaxBlockDimZ, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
        {hipDeviceAttributeMaxGridDimX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
        {hipDeviceAttributeMaxGridDimY, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
        {hipDeviceAttributeMaxGridDimZ, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
        {hipDeviceAttributeMaxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {hipDeviceAttributeMaxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
        {hipDeviceAttributeMaxPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
        {hipDeviceAttributeMemoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
        {hipDeviceAttributeMemoryClockRate, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
        {hipDeviceAttributeMultiprocessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
        {hipDeviceAttributePageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS},
        {hipDeviceAttributePciBusId, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID},
        {hipDeviceAttributePciDeviceId, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID},
        {hipDeviceAttributePciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID},
        {hipDeviceAttributeMaxRegistersPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
        {hipDeviceAttributeMaxRegistersPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
        {hipDeviceAttributeMaxSharedMemoryPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
        {hipDeviceAttributeSharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
        {hipDeviceAttributeSharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
        {hipDeviceAttributeStreamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED},
        {hipDeviceAttributeSurfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT},
        {hipDeviceAttributeTextureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT},
        {hipDeviceAttributeTexturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT},
        {hipDeviceAttributeTotalConstantMemory, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
        {hipDeviceAttributeUnifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING},
        {hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
        {hipDeviceAttributeClockInstructionRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
        {hipDeviceAttributePhysicalMultiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    };
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        if (same[i].hip == attr) {
            return CU(cuDeviceGetAttribute(pi, same[i].cu, dev));
        }
    }
    switch (attr) {
    case hipDeviceAttributeWarpSize: *pi = 32; return hipSuccess; /* a gfx1010 in wave32 */
    case hipDeviceAttributeComputeCapabilityMajor: *pi = 10; return hipSuccess; /* gfx1010 -> 10.1 */
    case hipDeviceAttributeComputeCapabilityMinor: *pi = 1; return hipSuccess;
    case hipDeviceAttributeTotalGlobalMem: {
        size_t bytes = 0;
        hipError_t e = CU(cuDeviceTotalMem_v2(&bytes, dev));
        *pi = bytes > INT32_MAX ? INT32_MAX : (int) bytes;
        return e;
    }
    case hipDeviceAttributeIsLargeBar:
    case hipDeviceAttributeAsicRevision:
    case hipDeviceAttributeCanUseStreamWaitValue:
    case hipDeviceAttributeImageSupport:
    case hipDeviceAttributeFineGrainSupport:
    case hipDeviceAttributeTccDriver:
        *pi = 0;
        return hipSuccess;
    case STANDIN_ATTR_WALL_CLOCK_RATE: *pi = 100000; return hipSuccess; /* kHz, as RDNA's 100 MHz */
    default: return record(hipErrorInvalidValue);
    }
}

EXPORT hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId) {
    FIRST_CALL("hipDeviceGetAttribute");
    CUdevice dev;
    hipError_t e = query_device(pi, deviceId, &dev);
    return e != hipSuccess ? e : attribute(pi, (int) attr, dev);
}

/* Properties read straight from one CUDA device attribute: (field, attribute). */
#define PROP(field, attr) {offsetof(hipDeviceProp_tR0600, field), sizeof(((hipDeviceProp_tR0600*) 0)->field), attr}
static const struct { size_t offset; size_t size; int cu; } PROP_ATTRS[] = {
    PROP(sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
    PROP(regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
    PROP(memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH),
    PROP(maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
    PROP(clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
    PROP(totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY),
    PROP(textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT),
    PROP(texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT),
    PROP(deviceOverlap, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP),
    PROP(multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
    PROP(kernelExecTimeoutEnabled, CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT),
    PROP(integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED),
    PROP(canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY),
    PROP(computeMode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE),
    PROP(surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT),
    PROP(concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS),
    PROP(ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED),
    PROP(pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
    PROP(pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID),
    PROP(pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
    PROP(asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT),
    PROP(unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING),
    PROP(memoryClockRate, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
    PROP(memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
    PROP(l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE),
    PROP(maxThreadsPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR),
    PROP(streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED),
    PROP(globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED),
    PROP(localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED),
    PROP(sharedMemPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
    PROP(regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR),
    PROP(managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY),
    PROP(isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD),
    PROP(hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED),
    PROP(pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS),
    PROP(concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS),
    PROP(computePreemptionSupported, CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED),
    PROP(cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH),
    PROP(sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
    PROP(maxBlocksPerMultiProcessor, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR),
};

EXPORT hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* p, int deviceId) {
    FIRST_CALL("hipGetDevicePropertiesR0600");
    CUdevice dev;
    hipError_t e = query_device(p, deviceId, &dev);
    if (e != hipSuccess) {
        return e;
    }
    memset(p, 0, sizeof *p);
    device_name(p->name, (int) sizeof p->name, deviceId);
    CUuuid uuid;
    if (cuDeviceGetUuid_v2(&uuid, dev) == CUDA_SUCCESS) {
        memcpy(p->uuid.bytes, uuid.bytes, sizeof p->uuid.bytes);
    }
    cuDeviceTotalMem_v2(&p->totalGlobalMem, dev);
    for (size_t i = 0; i < sizeof PROP_ATTRS / sizeof PROP_ATTRS[0]; i++) {
        int v = cu_attr(dev, PROP_ATTRS[i].cu);
        char* field = (char*) p + PROP_ATTRS[i].offset;
        if (PROP_ATTRS[i].size == sizeof(size_t)) {
            size_t wide = (size_t) v;
            memcpy(field, &wide, sizeof wide);
        } else {
            memcpy(field, &v, sizeof v);
        }
    }
    p->warpSize = 32;
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = cu_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i);
        p->maxGridSize[i] = cu_attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i);
    }
    p->major = 10;
    p->minor = 1;
    snprintf(p->gcnArchName, sizeof p->gcnArchName, "%s", STANDIN_ARCH);
    p->maxSharedMemoryPerMultiProcessor = p->sharedMemPerMultiprocessor;
    p->clockInstructionRate = p->clockRate;
    p->arch.hasGlobalInt32Atomics = 1;
    p->arch.hasGlobalFloatAtomicExch = 1;
    p->arch.hasSharedInt32Atomics = 1;
    p->arch.hasSharedFloatAtomicExch = 1;
    p->arch.hasFloatAtomicAdd = 1;
    p->arch.hasGlobalInt64Atomics = 1;
    p->arch.hasSharedInt64Atomics = 1;
    p->arch.hasDoubles = 1;
    p->arch.hasWarpVote = 1;
    p->arch.hasWarpBallot = 1;
    p->arch.hasWarpShuffle = 1;
    p->arch.hasFunnelShift = 1;
    p->arch.hasThreadFenceSystem = 1;
    p->arch.hasSyncThreadsExt = 1;
    p->arch.has3dGrid = 1;
    return hipSuccess;
}

EXPORT hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
    FIRST_CALL("hipDeviceTotalMem");
    CUdevice dev;
    hipError_t e = query_device(bytes, device, &dev);
    return e != hipSuccess ? e : CU(cuDeviceTotalMem_v2(bytes, dev));
}

EXPORT hipError_t hipMemGetInfo(size_t* free, size_t* total) {
    FIRST_CALL("hipMemGetInfo");
    BIND();
    return CU(cuMemGetInfo_v2(free, total));
}

/* ---- memory ------------------------------------------------------------------------------ */

/* The common start of the allocators: null out-pointer is an error, size 0 gives NULL. Returns
 * 1 when the call is already answered (in *e). */
static int alloc_answered(void** ptr, size_t size, hipError_t* e) {
    *e = ptr ? hipSuccess : record(hipErrorInvalidValue);
    if (ptr) {
        *ptr = NULL;
    }
    return !ptr || size == 0;
}

EXPORT hipError_t hipMalloc(void** ptr, size_t size) {
    FIRST_CALL("hipMalloc");
    hipError_t e;
    if (alloc_answered(ptr, size, &e)) {
        return e;
    }
    BIND();
    CUdeviceptr d = 0;
    e = CU(cuMemAlloc_v2(&d, size));
    if (e == hipSuccess) {
        *ptr = (void*) (uintptr_t) d;
    }
    return e;
}

EXPORT hipError_t hipFree(void* ptr) {
    FIRST_CALL("hipFree");
    if (!ptr) {
        return hipSuccess;
    }
    BIND();
    return CU(cuMemFree_v2((CUdeviceptr) (uintptr_t) ptr));
}

EXPORT hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
    FIRST_CALL("hipHostMalloc");
    hipError_t e;
    if (alloc_answered(ptr, size, &e)) {
        return e;
    }
    BIND();
    /* Portable, Mapped and WriteCombined are the same bits as CU_MEMHOSTALLOC_*; HIP's
     * coherence/NUMA flags have no CUDA counterpart and are dropped. */
    return CU(cuMemHostAlloc(ptr, size, flags & (hipHostMallocPortable | hipHostMallocMapped
                                                 | hipHostMallocWriteCombined)));
}

EXPORT hipError_t hipHostFree(void* ptr) {
    FIRST_CALL("hipHostFree");
    if (!ptr) {
        return hipSuccess;
    }
    BIND();
    return CU(cuMemFreeHost(ptr));
}

EXPORT hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void* src, size_t sizeBytes, hipStream_t stream) {
    FIRST_CALL("hipMemcpyHtoDAsync");
    BIND();
    return CU(cuMemcpyHtoDAsync_v2((CUdeviceptr) (uintptr_t) dst, src, sizeBytes, (CUstream) stream));
}

EXPORT hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream) {
    FIRST_CALL("hipMemcpyDtoHAsync");
    BIND();
    return CU(cuMemcpyDtoHAsync_v2(dst, (CUdeviceptr) (uintptr_t) src, sizeBytes, (CUstream) stream));
}

EXPORT hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                                     hipStream_t stream) {
    FIRST_CALL("hipMemcpyDtoDAsync");
    BIND();
    return CU(cuMemcpyDtoDAsync_v2((CUdeviceptr) (uintptr_t) dst, (CUdeviceptr) (uintptr_t) src, sizeBytes,
                                   (CUstream) stream));
}

EXPORT hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
    FIRST_CALL("hipMemsetD32Async");
    BIND();
    return CU(cuMemsetD32Async((CUdeviceptr) (uintptr_t) dst, (unsigned int) value, count, (CUstream) stream));
}

/* ---- streams ----------------------------------------------------------------------------- */

EXPORT hipError_t hipStreamCreate(hipStream_t* stream) {
    FIRST_CALL("hipStreamCreate");
    if (!stream) {
        return record(hipErrorInvalidValue);
    }
    BIND();
    CUstream s = NULL;
    hipError_t e = CU(cuStreamCreate(&s, 0));
    *stream = (hipStream_t) s;
    return e;
}

EXPORT hipError_t hipStreamDestroy(hipStream_t stream) {
    FIRST_CALL("hipStreamDestroy");
    if (!stream) {
        return record(hipErrorInvalidHandle);
    }
    BIND();
    return CU(cuStreamDestroy_v2((CUstream) stream));
}

EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
    FIRST_CALL("hipStreamSynchronize");
    BIND();
    return CU(cuStreamSynchronize((CUstream) stream));
}

/* ---- events (ordering between streams; hipEventDisableTiming = CU_EVENT_DISABLE_TIMING = 2) ---- */

EXPORT hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags) {
    FIRST_CALL("hipEventCreateWithFlags");
    if (!event) {
        return record(hipErrorInvalidValue);
    }
    BIND();
    CUevent e = NULL;
    hipError_t r = CU(cuEventCreate(&e, flags & hipEventDisableTiming));
    *event = (hipEvent_t) e;
    return r;
}

EXPORT hipError_t hipEventDestroy(hipEvent_t event) {
    FIRST_CALL("hipEventDestroy");
    if (!event) {
        return record(hipErrorInvalidHandle);
    }
    BIND();
    return CU(cuEventDestroy_v2((CUevent) event));
}

EXPORT hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
    FIRST_CALL("hipEventRecord");
    BIND();
    return CU(cuEventRecord((CUevent) event, (CUstream) stream));
}

EXPORT hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
    FIRST_CALL("hipStreamWaitEvent");
    BIND();
    return CU(cuStreamWaitEvent((CUstream) stream, (CUevent) event, flags));
}

EXPORT hipError_t hipDeviceSynchronize(void) {
    FIRST_CALL("hipDeviceSynchronize");
    BIND();
    return CU(cuCtxSynchronize());
}

/* ---- modules ----------------------------------------------------------------------------- */

/* Names of the FUNC symbols of a 64-bit ELF image (an AMD code object's kernels), written
 * NUL-separated into names; returns how many, or -1 if the image is not such an ELF file. */
static int elf_function_names(const unsigned char* img, char* names, size_t cap, size_t* used) {
    if (memcmp(img, "\177ELF", 4) != 0 || img[4] != 2 || img[5] != 1) {
        return -1;
    }
    uint64_t shoff;
    uint16_t shentsize, shnum;
    memcpy(&shoff, img + 40, 8);
    memcpy(&shentsize, img + 58, 2);
    memcpy(&shnum, img + 60, 2);
    int count = 0;
    *used = 0;
    for (unsigned i = 0; i < shnum; i++) {
        const unsigned char* sh = img + shoff + (uint64_t) i * shentsize;
        uint32_t type, link;
        uint64_t off, size, entsize;
        memcpy(&type, sh + 4, 4);
        memcpy(&off, sh + 24, 8);
        memcpy(&size, sh + 32, 8);
        memcpy(&link, sh + 40, 4);
        memcpy(&entsize, sh + 56, 8);
        if ((type != 2 && type != 11) || entsize != 24) { /* SHT_SYMTAB, SHT_DYNSYM */
            continue;
        }
        uint64_t stroff;
        memcpy(&stroff, img + shoff + (uint64_t) link * shentsize + 24, 8);
        for (uint64_t p = off; p + 24 <= off + size; p += 24) {
            uint32_t nameoff;
            memcpy(&nameoff, img + p, 4);
            if ((img[p + 4] & 0xf) != 2) { /* STT_FUNC */
                continue;
            }
            const char* name = (const char*) img + stroff + nameoff;
            size_t n = strlen(name) + 1;
            if (*used + n > cap) {
                return count;
            }
            memcpy(names + *used, name, n);
            *used += n;
            count++;
        }
    }
    return count;
}

static char* read_file(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* buf = n >= 0 ? malloc((size_t) n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t) n, f) != (size_t) n) {
        free(buf);
        buf = NULL;
    }
    if (buf) {
        buf[n] = '\0';
    }
    fclose(f);
    return buf;
}

/* Whether the PTX has ".entry <kernel>(" (ptxas writes exactly one space after .entry). */
static int ptx_defines(const char* ptx, const char* kernel) {
    size_t n = strlen(kernel);
    for (const char* p = strstr(ptx, kernel); p; p = strstr(p + 1, kernel)) {
        if (p - ptx >= 7 && memcmp(p - 7, ".entry ", 7) == 0 && p[n] == '(') {
            return 1;
        }
    }
    return 0;
}

/* The PTX text, from DICTUM_HIP_STANDIN_PTX, that defines every kernel in names (malloc'd). */
static char* find_ptx(const char* names, int count) {
    const char* dir = getenv("DICTUM_HIP_STANDIN_PTX");
    if (!dir || !*dir) {
        standin_log("%s", "hipModuleLoadData: DICTUM_HIP_STANDIN_PTX is not set (the directory of the PTX modules)");
        return NULL;
    }
    DIR* d = opendir(dir);
    if (!d) {
        standin_log("hipModuleLoadData: cannot open DICTUM_HIP_STANDIN_PTX=%s", dir);
        return NULL;
    }
    char* found = NULL;
    struct dirent* e;
    while (!found && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ptx") != 0) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char* ptx = read_file(path);
        if (!ptx) {
            continue;
        }
        int all = 1;
        const char* n = names;
        for (int i = 0; i < count && all; i++, n += strlen(n) + 1) {
            all = ptx_defines(ptx, n);
        }
        if (all) {
            found = ptx;
        } else {
            free(ptx);
        }
    }
    closedir(d);
    if (!found) {
        standin_log("hipModuleLoadData: no PTX module in DICTUM_HIP_STANDIN_PTX defines kernel %s", names);
    }
    return found;
}

EXPORT hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
    FIRST_CALL("hipModuleLoadData");
    if (!module || !image) {
        return record(hipErrorInvalidValue);
    }
    BIND();
    const unsigned char* img = image;
    CUmodule m = NULL;
    uint16_t machine = 0;
    if (memcmp(img, "\177ELF", 4) == 0) {
        memcpy(&machine, img + 18, 2);
    }
    if (machine == 190 || memcmp(img, "//", 2) == 0 || memcmp(img, ".version", 8) == 0) {
        /* a cubin (EM_CUDA) or PTX text: the driver takes it as it is */
        hipError_t e = CU(cuModuleLoadData(&m, image));
        *module = (hipModule_t) m;
        return e;
    }
    if (machine != 224) { /* EM_AMDGPU */
        standin_log("%s", "hipModuleLoadData: image is neither an AMD code object nor PTX/cubin"
                          " (offload bundles are not handled)");
        return record(hipErrorInvalidImage);
    }
    static __thread char names[16384];
    size_t used = 0;
    int count = elf_function_names(img, names, sizeof names, &used);
    if (count <= 0) {
        standin_log("%s", "hipModuleLoadData: the code object has no kernel symbols");
        return record(hipErrorInvalidImage);
    }
    char* ptx = find_ptx(names, count);
    if (!ptx) {
        return record(hipErrorInvalidImage);
    }
    hipError_t e = CU(cuModuleLoadData(&m, ptx));
    free(ptx);
    *module = (hipModule_t) m;
    return e;
}

EXPORT hipError_t hipModuleUnload(hipModule_t module) {
    FIRST_CALL("hipModuleUnload");
    BIND();
    return CU(cuModuleUnload((CUmodule) module));
}

EXPORT hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module, const char* kname) {
    FIRST_CALL("hipModuleGetFunction");
    if (!function || !kname) {
        return record(hipErrorInvalidValue);
    }
    BIND();
    CUfunction f = NULL;
    hipError_t e = CU(cuModuleGetFunction(&f, (CUmodule) module, kname));
    *function = (hipFunction_t) f;
    return e;
}

EXPORT hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t hfunc) {
    FIRST_CALL("hipFuncGetAttribute");
    if (!value) {
        return record(hipErrorInvalidValue);
    }
    BIND();
    /* HIP_FUNC_ATTRIBUTE_* are CU_FUNC_ATTRIBUTE_* value for value (0..9). */
    return CU(cuFuncGetAttribute(value, (int) attrib, (CUfunction) hfunc));
}

EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                        unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                        unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                        void** kernelParams, void** extra) {
    FIRST_CALL("hipModuleLaunchKernel");
    BIND();
    void* cuExtra[8];
    void** ex = NULL;
    if (extra) {
        /* HIP ends the extra array with HIP_LAUNCH_PARAM_END (3), CUDA with 0; the two other
         * markers (buffer pointer 1, buffer size 2) are the same. */
        int i = 0;
        for (; i < 7 && extra[i] != HIP_LAUNCH_PARAM_END; i++) {
            cuExtra[i] = extra[i];
        }
        cuExtra[i] = CU_LAUNCH_PARAM_END;
        ex = cuExtra;
    }
    return CU(cuLaunchKernel((CUfunction) f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                             sharedMemBytes, (CUstream) stream, kernelParams, ex));
}

/* ---- error reporting --------------------------------------------------------------------- */

EXPORT hipError_t hipGetLastError(void) {
    FIRST_CALL("hipGetLastError");
    hipError_t e = last_error;
    last_error = hipSuccess;
    return e;
}

static const char* error_name(hipError_t e) {
    switch (e) {
    case hipSuccess: return "hipSuccess";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorNotInitialized: return "hipErrorNotInitialized";
    case hipErrorDeinitialized: return "hipErrorDeinitialized";
    case hipErrorNoDevice: return "hipErrorNoDevice";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorInvalidImage: return "hipErrorInvalidImage";
    case hipErrorInvalidContext: return "hipErrorInvalidContext";
    case hipErrorNoBinaryForGpu: return "hipErrorNoBinaryForGpu";
    case hipErrorInvalidKernelFile: return "hipErrorInvalidKernelFile";
    case hipErrorInvalidHandle: return "hipErrorInvalidHandle";
    case hipErrorNotFound: return "hipErrorNotFound";
    case hipErrorNotReady: return "hipErrorNotReady";
    case hipErrorIllegalAddress: return "hipErrorIllegalAddress";
    case hipErrorLaunchOutOfResources: return "hipErrorLaunchOutOfResources";
    case hipErrorLaunchTimeOut: return "hipErrorLaunchTimeOut";
    case hipErrorLaunchFailure: return "hipErrorLaunchFailure";
    case hipErrorUnknown: return "hipErrorUnknown";
    default: return "hipErrorUnknown";
    }
}

EXPORT const char* hipGetErrorName(hipError_t hip_error) {
    FIRST_CALL("hipGetErrorName");
    return error_name(hip_error);
}

EXPORT const char* hipGetErrorString(hipError_t hipError) {
    FIRST_CALL("hipGetErrorString");
    switch (hipError) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorNoDevice: return "no ROCm-capable device is detected";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidImage: return "device kernel image is invalid";
    case hipErrorNotFound: return "named symbol not found";
    case hipErrorIllegalAddress: return "an illegal memory access was encountered";
    case hipErrorLaunchFailure: return "unspecified launch failure";
    case hipErrorLaunchOutOfResources: return "too many resources requested for launch";
    default: return error_name(hipError);
    }
}
