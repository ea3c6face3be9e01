// core/src/lapack.h: the Fortran LAPACK routines that wick calls (OpenBLAS exports them), and Lapack<T>,
// which names the float or the double routine. See Note [Row-major matrices in LAPACK] in decompositions.cpp.
#pragma once

#include <cstddef>

// Fortran's calling convention: every argument by pointer, matrices column-major with a leading dimension
// (lda: the distance between columns). gfortran passes the length of each character argument after the others,
// as a size_t; the prototypes spell those out, so that no routine reads a length that was never passed.
#define WICK_LAPACK_PROTOTYPES(p, T)                                                                              \
  void p##getrf_(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info);                         \
  void p##getrs_(const char* trans, const int* n, const int* nrhs, const T* a, const int* lda, const int* ipiv,   \
                 T* b, const int* ldb, int* info, size_t trans_len);                                              \
  void p##potrf_(const char* uplo, const int* n, T* a, const int* lda, int* info, size_t uplo_len);               \
  void p##geqrf_(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork, int* info); \
  void p##orgqr_(const int* m, const int* n, const int* k, T* a, const int* lda, const T* tau, T* work,          \
                 const int* lwork, int* info);                                                                    \
  void p##syevd_(const char* jobz, const char* uplo, const int* n, T* a, const int* lda, T* w, T* work,          \
                 const int* lwork, int* iwork, const int* liwork, int* info, size_t jobz_len, size_t uplo_len);   \
  void p##gesdd_(const char* jobz, const int* m, const int* n, T* a, const int* lda, T* s, T* u, const int* ldu, \
                 T* vt, const int* ldvt, T* work, const int* lwork, int* iwork, int* info, size_t jobz_len);

extern "C" {
WICK_LAPACK_PROTOTYPES(s, float)
WICK_LAPACK_PROTOTYPES(d, double)
}
#undef WICK_LAPACK_PROTOTYPES

namespace wick::detail {

template <typename T>
struct Lapack;

#define WICK_LAPACK_TABLE(p, T)                  \
  template <>                                    \
  struct Lapack<T> {                             \
    static constexpr auto getrf = &p##getrf_;    \
    static constexpr auto getrs = &p##getrs_;    \
    static constexpr auto potrf = &p##potrf_;    \
    static constexpr auto geqrf = &p##geqrf_;    \
    static constexpr auto orgqr = &p##orgqr_;    \
    static constexpr auto syevd = &p##syevd_;    \
    static constexpr auto gesdd = &p##gesdd_;    \
  };
WICK_LAPACK_TABLE(s, float)
WICK_LAPACK_TABLE(d, double)
#undef WICK_LAPACK_TABLE

}  // namespace wick::detail
