package dev.dictum.gpu.device;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * The HIP runtime's cold calls (setup, queries, allocation, modules), interface-mapped: a symbol
 * missing from an older runtime (hipGetDevicePropertiesR0600 in 5.x) fails only when called.
 * Signatures and enum values are ROCm 6.2's hip_runtime_api.h; {@code size_t}, handles and device
 * pointers are 64-bit on every platform Dictum runs on, so they are {@code long} here.
 */
interface HipApi extends Library {
    int hipSuccess = 0;
    int hipErrorNoDevice = 100;

    // hipDeviceAttribute_t (ROCm 6.x numbering: CUDA-compatible block from 0; 5.x is the same for these).
    int hipDeviceAttributeComputeCapabilityMajor = 23;
    int hipDeviceAttributeMaxThreadsPerBlock = 56;
    int hipDeviceAttributeComputeCapabilityMinor = 61;
    int hipDeviceAttributeMultiprocessorCount = 63;
    int hipDeviceAttributeMaxSharedMemoryPerBlock = 74;
    int hipDeviceAttributeWarpSize = 87;

    // hipFunction_attribute
    int HIP_FUNC_ATTRIBUTE_NUM_REGS = 4;

    // hipDeviceProp_tR0600 (ROCm 6.x): 1472 bytes on x86-64; gcnArchName char[256] at byte 1160.
    int PROPS_R0600_BYTES = 1472;
    int PROPS_R0600_GCN_ARCH_NAME = 1160;

    int hipInit(int flags);

    int hipDriverGetVersion(IntByReference version);

    int hipRuntimeGetVersion(IntByReference version);

    int hipGetDeviceCount(IntByReference count);

    int hipSetDevice(int device);

    int hipGetDevice(IntByReference device);

    int hipDeviceGetName(byte[] name, int len, int device);

    int hipDeviceGetAttribute(IntByReference value, int attribute, int device);

    int hipGetDevicePropertiesR0600(Pointer props, int device);

    int hipDeviceTotalMem(LongByReference bytes, int device);

    int hipMemGetInfo(LongByReference free, LongByReference total);

    int hipMalloc(LongByReference ptr, long size);

    int hipFree(long ptr);

    int hipHostMalloc(LongByReference ptr, long size, int flags);

    int hipHostFree(long ptr);

    int hipStreamCreate(LongByReference stream);

    int hipStreamDestroy(long stream);

    int hipEventCreateWithFlags(LongByReference event, int flags);

    int hipEventDestroy(long event);

    int hipEventRecord(long event, long stream);

    int hipStreamWaitEvent(long stream, long event, int flags);

    int hipDeviceSynchronize();

    int hipModuleLoadData(LongByReference module, Pointer image);

    int hipModuleUnload(long module);

    int hipModuleGetFunction(LongByReference function, long module, String name);

    int hipFuncGetAttribute(IntByReference value, int attribute, long function);

    String hipGetErrorName(int status);

    String hipGetErrorString(int status);

    int hipGetLastError();

    /** For tests that want the raw pointer form of an out-parameter. */
    default long out(PointerByReference r) {
        return Pointer.nativeValue(r.getValue());
    }
}
