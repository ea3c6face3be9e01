// python_ext/dlpack.h: the DLPack exchange structs (legacy and 1.x), written from the DLPack specification.
//
// Only the C ABI matters: these mirror dlpack.h v1.0 field for field, and the
// static_asserts below pin the layout every producer and consumer relies on.
#pragma once

#include <cstddef>
#include <cstdint>

namespace wick {
namespace python {

// The DLPack version this file speaks when it produces a versioned capsule.
constexpr uint32_t kDLPackMajorVersion = 1;
constexpr uint32_t kDLPackMinorVersion = 0;

struct DLPackVersion {
  uint32_t major;
  uint32_t minor;
};

// DLDeviceType: a C enum, so int-sized in the struct.
enum DLDeviceType : int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13,
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
};

struct DLDevice {
  DLDeviceType device_type;
  int32_t device_id;
};

enum DLDataTypeCode : uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLOpaqueHandle = 3,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  uint8_t code;  // a DLDataTypeCode
  uint8_t bits;
  uint16_t lanes;
};

// shape and strides have ndim entries; strides count elements, not bytes, and
// may be null for a compact row-major tensor. The first element is at
// (char*)data + byte_offset.
struct DLTensor {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
};

// The legacy exchange struct, in a capsule named "dltensor".
struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);  // may be null; frees self too
};

constexpr uint64_t kDLPackFlagReadOnly = uint64_t(1) << 0;
constexpr uint64_t kDLPackFlagIsCopied = uint64_t(1) << 1;

// The DLPack 1.x exchange struct, in a capsule named "dltensor_versioned".
// Everything up to and including `flags` stays put across future ABI changes.
struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);  // may be null; frees self too
  uint64_t flags;
  DLTensor dl_tensor;
};

// Capsule names, and the names a consumer gives a capsule it has taken over.
constexpr const char* kDLTensorName = "dltensor";
constexpr const char* kUsedDLTensorName = "used_dltensor";
constexpr const char* kDLTensorVersionedName = "dltensor_versioned";
constexpr const char* kUsedDLTensorVersionedName = "used_dltensor_versioned";

static_assert(sizeof(DLDevice) == 8 && sizeof(DLDataType) == 4, "DLPack ABI");
static_assert(sizeof(void*) != 8 || (sizeof(DLTensor) == 48 && offsetof(DLTensor, byte_offset) == 40), "DLPack ABI");
static_assert(sizeof(void*) != 8 || (sizeof(DLManagedTensor) == 64 && sizeof(DLManagedTensorVersioned) == 80 &&
                                     offsetof(DLManagedTensorVersioned, dl_tensor) == 32),
              "DLPack ABI");

}  // namespace python
}  // namespace wick
