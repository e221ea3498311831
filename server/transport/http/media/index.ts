import type { RouteModule } from '../context.js';
import { mediaLibraryRoutes } from './library-routes.js';
import { mediaPublicRoutes } from './public-routes.js';
import { mediaUploadRoutes } from './upload-routes.js';

/** Behind the admin guard: the library, assignments and issuing upload URLs. */
export const mediaAdminRouteModules: RouteModule[] = [mediaLibraryRoutes, mediaUploadRoutes];
/** Public: serving media, and the signed upload URLs of the local store. */
export const mediaPublicRouteModules: RouteModule[] = [mediaPublicRoutes];
