/* follow-lib.h - the shared library of the follow workload
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

/* Burns @units work units (workload.h) in the library. */
void followlib_work (unsigned long units);
