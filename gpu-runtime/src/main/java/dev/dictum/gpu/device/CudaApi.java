package dev.dictum.gpu.device;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The CUDA driver API's cold calls, interface-mapped, by their versioned entry names (the
 * {@code _v2} ones the CUDA headers compile to for 64-bit sizes).
 */
interface CudaApi extends Library {
    int CUDA_SUCCESS = 0;

    int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
    int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
    int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
    int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
    int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
    int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
    int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
    int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
    int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
    int CU_LIMIT_STACK_SIZE = 0;

    int cuInit(int flags);

    int cuDriverGetVersion(IntByReference version);

    int cuDeviceGetCount(IntByReference count);

    int cuDeviceGet(IntByReference device, int ordinal);

    int cuDeviceGetName(byte[] name, int len, int device);

    int cuDeviceGetAttribute(IntByReference value, int attribute, int device);

    int cuDeviceTotalMem_v2(LongByReference bytes, int device);

    int cuDevicePrimaryCtxRetain(LongByReference context, int device);

    int cuCtxSetCurrent(long context);

    int cuCtxSynchronize();

    int cuCtxSetLimit(int limit, long value);

    int cuCtxGetLimit(LongByReference value, int limit);

    int cuMemGetInfo_v2(LongByReference free, LongByReference total);

    int cuMemAlloc_v2(LongByReference ptr, long bytes);

    int cuMemFree_v2(long ptr);

    int cuMemAllocHost_v2(LongByReference ptr, long bytes);

    int cuMemFreeHost(long ptr);

    int cuStreamCreate(LongByReference stream, int flags);

    int cuStreamDestroy_v2(long stream);

    int cuEventCreate(LongByReference event, int flags);

    int cuEventDestroy_v2(long event);

    int cuEventRecord(long event, long stream);

    int cuStreamWaitEvent(long stream, long event, int flags);

    int cuModuleLoadData(LongByReference module, Pointer image);

    int cuModuleUnload(long module);

    int cuModuleGetFunction(LongByReference function, long module, String name);

    int cuFuncGetAttribute(IntByReference value, int attribute, long function);

    /** Once per kernel that needs it (above 48 KiB of dynamic shared memory), so interface-mapped. */
    int cuFuncSetAttribute(long function, int attribute, int value);

    int cuGetErrorName(int status, PointerByReference name);

    int cuGetErrorString(int status, PointerByReference text);

    int CU_STREAM_CAPTURE_MODE_RELAXED = 2;

    int cuStreamBeginCapture_v2(long stream, int mode);

    int cuStreamEndCapture(long stream, LongByReference graph);

    int cuGraphInstantiateWithFlags(LongByReference graphExec, long graph, long flags);

    /** Once per decoder step, so interface-mapped: a driver older than CUDA 10 lacks it and binds the rest. */
    int cuGraphLaunch(long graphExec, long stream);

    int cuGraphDestroy(long graph);

    int cuGraphExecDestroy(long graphExec);
}
