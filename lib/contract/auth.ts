/**
 * Sign-in and the signed-in identity.
 */
import { z } from 'zod';

export const roleSchema = z.enum(['viewer', 'operator']);
export type Role = z.infer<typeof roleSchema>;

export const authModeSchema = z.enum(['login', 'proxy', 'none']);
export type AuthMode = z.infer<typeof authModeSchema>;

export const loginBodySchema = z
  .object({
    username: z.string().min(1, 'username must not be empty').max(128, 'username must be at most 128 characters'),
    password: z.string().min(1, 'password must not be empty').max(1024, 'password must be at most 1024 characters'),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBodySchema>;

/** GET /api/auth/me. In mode none the user is `anonymous` with the operator role. */
export const meSchema = z.object({ user: z.string(), role: roleSchema, mode: authModeSchema });
export type MeDto = z.infer<typeof meSchema>;

/** POST /api/auth/logout-everywhere: every session of `user` ended, this one included. */
export const logoutEverywhereSchema = z.object({ user: z.string(), ended: z.number().int().nonnegative() });
export type LogoutEverywhereDto = z.infer<typeof logoutEverywhereSchema>;
